import { closeSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { BackendEnv } from '../../core/backend.ts';
import type { StateStore } from '../../core/store.ts';
import { FsStore } from '../../backends/filesystem/fs-store.ts';
import { RunPaths } from '../../backends/filesystem/run-paths.ts';
import { formatBindingFile } from '../../core/formats/binding-file.ts';
import { formatSegmentFile } from '../../core/formats/segment-file.ts';
import { parseSegmentFileName, segmentFileName } from '../../core/numbering.ts';
import { mutant, type Mutant } from '../mutant.ts';
import { writeQueue } from './write-queue.ts';

/** Bugs only a crash or a second process shows: the crash and concurrency areas must catch them. */
export const DURABILITY_MUTANTS: Mutant[] = [
  mutant(
    'binding-rewritten-in-place',
    'a binding file is truncated and rewritten in pieces instead of replaced atomically',
    {
      store: (_base, env) => ({
        writeBinding: async (run, b) => {
          const dir = join(new RunPaths(env.projectDir, env.homeDir).runDir(run), 'bindings');
          mkdirSync(dir, { recursive: true });
          const file = join(dir, RunPaths.bindingFile(b.name, b.executionId));
          const bytes = Buffer.from(
            formatBindingFile({
              name: b.name,
              kind: b.kind,
              executionId: b.executionId,
              source: b.source ?? '',
              value: b.value,
            }),
          );
          const fd = openSync(file, 'w');
          // Small pieces with a pause between them: a kill in between leaves a torn file behind.
          for (let off = 0; off < bytes.length; off += 64) {
            writeSync(fd, bytes, off, Math.min(64, bytes.length - off));
            await new Promise((r) => setImmediate(r));
          }
          closeSync(fd);
          return { location: file };
        },
      }),
    },
  ),
  mutant(
    'acks-before-writing-in-process',
    'a binding is answered at once and written a second later (or on close); the backend declares durable but not multi-process',
    {
      store: (base, env) => writeBehind(base, env),
      capabilities: (caps) =>
        caps.filter((c) => c !== 'multi-process' && c !== 'concurrent-writers' && c !== 'layout:directory'),
    },
  ),
  mutant('segments-without-lock', 'the next segment number is read, then the file is written over whatever is there', {
    store: (_base, env) => ({
      appendSegment: async (loc, seg) => {
        const dir = new RunPaths(env.projectDir, env.homeDir).agentDir(loc);
        mkdirSync(dir, { recursive: true });
        const taken = readdirSync(dir)
          .map((f) => parseSegmentFileName(loc.agent, f))
          .filter((n): n is number => n !== undefined);
        const n = Math.max(0, ...taken) + 1;
        await new Promise((r) => setImmediate(r));
        const file = segmentFileName(loc.agent, n, env.decisions.segmentWidth);
        const fd = openSync(join(dir, file), 'w');
        writeSync(fd, formatSegmentFile({ number: n, ...seg }, env.decisions.segmentWidth));
        closeSync(fd);
        return { number: n, file, ...seg };
      },
    }),
  }),
];

/**
 * A write-behind store: writeBinding queues the write and answers; every other call (close among them) writes the
 * queue first, so the backend reads its own writes and a clean close loses nothing. Only a crash, an instance
 * dropped without close, shows that an answered binding was never written.
 */
function writeBehind(base: FsStore, env: BackendEnv): Partial<StateStore> {
  const { defer, flush } = writeQueue();
  const out: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(FsStore.prototype)) {
    const fn = (base as unknown as Record<string, unknown>)[key];
    if (key === 'constructor' || typeof fn !== 'function' || fn.constructor.name !== 'AsyncFunction') continue;
    out[key] = async (...args: unknown[]) => {
      await flush();
      return (fn as (...a: unknown[]) => unknown).apply(base, args);
    };
  }
  const writeBinding: StateStore['writeBinding'] = async (run, b, attach) => {
    defer(() => base.writeBinding(run, b, attach));
    const file = join(
      new RunPaths(env.projectDir, env.homeDir).runDir(run),
      'bindings',
      RunPaths.bindingFile(b.name, b.executionId),
    );
    return { location: relative(env.projectDir, file).split(sep).join('/') };
  };
  return { ...out, writeBinding } as Partial<StateStore>;
}
