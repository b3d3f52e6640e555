import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import { resolveDecisions } from '../core/decisions.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { isSkipped, type BackendOutcome, type BackendResult } from './bench-report.ts';
import type { Effort } from './bench-workload.ts';
import { measureInterleavedAsync, type MeasureTask } from './measure.ts';

/** Opens a backend by its string (`filesystem`, `sqlite`, `exec:COMMAND`, `module:PATH`, ...): the CLI's table. */
export type OpenBackend = (name: string) => Promise<BackendFactory>;

/** A plugin backend string: measured against our filesystem backend, and a failure of it fails the run. */
export const isPluginSpec = (spec: string): boolean => spec.startsWith('exec:') || spec.startsWith('module:');

/** A binding value of the size the seed's examples show (a paragraph of output), well under the attachment threshold. */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(
  12,
);

/**
 * Binding writes (`bind` by the owning subagent, each a new name), resolved reads (`resolve` from root scope) and,
 * where the backend has the world-model capability, world-model commits (each a new version of a two-file node:
 * the commit serializes and hashes it, the hashing hot path inside a store) through each named backend, opened by
 * `open` (the CLI's table of backend kinds). Each figure is also divided by the file-system floor of the same
 * bytes: a durable atomic write (temp, fsync, rename, dir fsync) and a readFileSync; and, for every backend but
 * ours, by our filesystem backend's figure in the same run (`vsFilesystem`) when that was measured.
 */
export async function benchBackends(
  root: string,
  effort: Effort,
  names: readonly string[],
  open: OpenBackend,
  /** How a backend string may be shown: the CLI masks secrets (a URL's password, API_TOKEN=...). */
  shown: (spec: string) => string = (spec) => spec,
): Promise<BackendOutcome[]> {
  const out: BackendOutcome[] = [];
  const floorDir = join(root, 'floor');
  mkdirSync(floorDir, { recursive: true });
  let f = 0;
  const floor = await measureInterleavedAsync(
    [
      {
        name: 'write',
        fn: async () => writeFileAtomic(join(floorDir, `v${f++ % 64}.md`), VALUE),
        iterations: effort.inProcess * 4,
        time: effort.rounds > 1 ? 200 : 50,
      },
      {
        name: 'read',
        fn: async () => readFileSync(join(floorDir, 'v0.md'), 'utf8'),
        iterations: effort.inProcess * 4,
        time: effort.rounds > 1 ? 200 : 50,
      },
    ],
    1,
  );
  for (const name of names) {
    try {
      const floors = { write: floor.get('write')!, read: floor.get('read')! };
      out.push(await benchOne(root, name, open, effort, floors, shown));
    } catch (err) {
      // A plugin's name is its string here (it may not have answered one), with its secrets masked.
      out.push({
        name: shown(name),
        skipped: `errored: ${err instanceof Error ? err.message : String(err)}`,
        ...(isPluginSpec(name) ? { failed: true } : {}),
      });
    }
  }
  const fs = out.find((b): b is BackendResult => !isSkipped(b) && b.name === 'filesystem');
  if (fs)
    for (const b of out) {
      if (isSkipped(b) || b === fs) continue;
      b.vsFilesystem = { write: b.write.ms / fs.write.ms, read: b.read.ms / fs.read.ms };
      if (b.commit && fs.commit) b.vsFilesystem.commit = b.commit.ms / fs.commit.ms;
    }
  return out;
}

async function benchOne(
  root: string,
  name: string,
  open: OpenBackend,
  effort: Effort,
  floor: BackendResult['floor'],
  shown: (spec: string) => string,
): Promise<BackendResult> {
  const factory = await open(name);
  const env: BackendEnv = {
    projectDir: join(root, `backend-${name}`, 'project'),
    homeDir: join(root, `backend-${name}`, 'home'),
    decisions: resolveDecisions(),
    storageKey: `bench-${name}-${process.pid}`,
  };
  mkdirSync(env.projectDir, { recursive: true });
  mkdirSync(env.homeDir, { recursive: true });
  const backend = await factory.open(env);
  try {
    const { run } = await backend.call('createRun', { program: 'session "bench"\n' }, { role: 'vm' });
    const tasks = await backendTasks(backend, run, factory.capabilities.includes('world-model'), effort, () =>
      shown(name),
    );
    const t = await measureInterleavedAsync(tasks, effort.rounds);
    const write = t.get('write')!;
    const read = t.get('read')!;
    const commit = t.get('commit');
    return {
      name: isPluginSpec(name) ? `${name.slice(0, name.indexOf(':'))}:${factory.name}` : factory.name,
      ...(isPluginSpec(name) ? { spec: shown(name) } : {}),
      write: { ...write, opsPerSec: 1000 / write.ms },
      read: { ...read, opsPerSec: 1000 / read.ms },
      ...(commit ? { commit: { ...commit, opsPerSec: 1000 / commit.ms } } : {}),
      floor,
      ratios: {
        write: write.ms / floor.write.ms,
        read: read.ms / floor.read.ms,
        ...(commit ? { commit: commit.ms / floor.write.ms } : {}),
      },
    };
  } finally {
    await backend.close();
    await factory.dispose?.(env);
  }
}

/**
 * The timed calls on one run: a binding write, a resolved read of one written before (one is written first), and a
 * world-model commit where the backend declares the capability. `label` names the backend in an error.
 */
async function backendTasks(
  backend: Backend,
  run: string,
  commits: boolean,
  effort: Effort,
  label: () => string,
): Promise<MeasureTask<Promise<unknown>>[]> {
  let written = 0;
  let readAt = 0;
  const bind = async () => {
    const n = `b${written++}`;
    await backend.call('bind', { run, name: n, kind: 'let', value: VALUE }, { role: 'subagent', binding: n });
  };
  await bind();
  const resolve = async () => {
    const r = await backend.call('resolve', { run, name: `b${readAt++ % written}` }, { role: 'vm' });
    if (r.value !== VALUE) throw new Error(`${label()} resolved a different value`);
  };
  const budget = effort.rounds > 1 ? 300 : 50;
  const tasks = [
    { name: 'write', fn: bind, iterations: effort.inProcess * 2, time: budget },
    { name: 'read', fn: resolve, iterations: effort.inProcess * 2, time: budget },
  ];
  if (commits) {
    let version = 0;
    const commit = async () => {
      // A new version each call (a skipped commit would not serialize a new artifact).
      const files = { 'truth.json': JSON.stringify({ version: version++ }), 'notes.md': VALUE };
      const r = await backend.call('commitWorldModel', { run, node: 'bench', contract: 'c', files }, { role: 'vm' });
      if (r.status !== 'rendered') throw new Error(`${label()} answered ${String(r.status)} to a changed commit`);
    };
    tasks.push({ name: 'commit', fn: commit, iterations: effort.inProcess * 2, time: budget });
  }
  return tasks;
}
