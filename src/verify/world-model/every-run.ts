import { join, relative } from 'node:path';
import type { Verifier } from '../finding.ts';
import { isKind, listOwned } from '../kit/owned-files.ts';
import { worldModelVerifier } from './index.ts';

/**
 * `verifier` (the one for a `.prose/` or a project holding one) plus the world-model rules of every run under its
 * `runs/`, imports included, each finding named from `path`: what `verify RUN` reports for each run, `verify PROJECT`
 * reports too (docs/verify-rules.md: "also checked with every run-dir").
 */
export function withRunWorldModels(verifier: Verifier, rootOf: (path: string) => string | undefined): Verifier {
  return {
    ...verifier,
    verify: async (path, opts) => {
      const out = await verifier.verify(path, opts);
      const root = rootOf(path) ?? path;
      const runs = join(root, 'runs');
      if (!isKind(runs, 'dir')) return out;
      for (const id of listOwned(runs)) {
        const run = join(runs, id);
        if (!isKind(run, 'dir') || !(await worldModelVerifier.detect(run))) continue;
        const at = relative(path, run).split('\\').join('/');
        for (const f of await worldModelVerifier.verify(run, opts))
          out.push({ ...f, file: f.file === undefined ? at : `${at}/${f.file}` });
      }
      return out;
    },
  };
}
