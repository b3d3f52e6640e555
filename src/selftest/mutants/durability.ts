import { closeSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RunPaths } from '../../backends/filesystem/run-paths.ts';
import { formatBindingFile } from '../../core/formats/binding-file.ts';
import { formatSegmentFile } from '../../core/formats/segment-file.ts';
import { parseSegmentFileName, segmentFileName } from '../../core/numbering.ts';
import { mutant, type Mutant } from '../mutant.ts';

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
