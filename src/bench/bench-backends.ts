import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv, BackendFactory } from '../core/backend.ts';
import { resolveDecisions } from '../core/decisions.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import type { BackendResult, Skipped } from './bench-report.ts';
import type { Effort } from './bench-workload.ts';
import { measureInterleavedAsync } from './measure.ts';

/** Opens a backend by its name (`filesystem`, `sqlite`, ...). */
export type OpenBackend = (name: string) => Promise<BackendFactory>;

/** A binding value of the size the seed's examples show (a paragraph of output), well under the attachment threshold. */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(
  12,
);

/**
 * Binding writes (`bind` by the owning subagent, each a new name) and resolved reads (`resolve` from root scope)
 * through each named backend, opened by `open` (the CLI's table of backend kinds). Each figure is also divided by the file-system floor of the
 * same bytes: a durable atomic write (temp, fsync, rename, dir fsync) and a readFileSync.
 */
export async function benchBackends(
  root: string,
  effort: Effort,
  names: readonly string[],
  open: OpenBackend,
): Promise<(BackendResult | ({ name: string } & Skipped))[]> {
  const out: (BackendResult | ({ name: string } & Skipped))[] = [];
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
      out.push(await benchOne(root, name, open, effort, { write: floor.get('write')!, read: floor.get('read')! }));
    } catch (err) {
      out.push({ name, skipped: `errored: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
  return out;
}

async function benchOne(
  root: string,
  name: string,
  open: OpenBackend,
  effort: Effort,
  floor: BackendResult['floor'],
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
    let written = 0;
    let readAt = 0;
    const bind = async () => {
      const n = `b${written++}`;
      await backend.call('bind', { run, name: n, kind: 'let', value: VALUE }, { role: 'subagent', binding: n });
    };
    await bind();
    const resolve = async () => {
      const r = await backend.call('resolve', { run, name: `b${readAt++ % written}` }, { role: 'vm' });
      if (r.value !== VALUE) throw new Error(`${name} resolved a different value`);
    };
    const budget = effort.rounds > 1 ? 300 : 50;
    const t = await measureInterleavedAsync(
      [
        { name: 'write', fn: bind, iterations: effort.inProcess * 2, time: budget },
        { name: 'read', fn: resolve, iterations: effort.inProcess * 2, time: budget },
      ],
      effort.rounds,
    );
    const write = t.get('write')!;
    const read = t.get('read')!;
    return {
      name: factory.name,
      write: { ...write, opsPerSec: 1000 / write.ms },
      read: { ...read, opsPerSec: 1000 / read.ms },
      floor,
      ratios: { write: write.ms / floor.write.ms, read: read.ms / floor.read.ms },
    };
  } finally {
    await backend.close();
    await factory.dispose?.(env);
  }
}
