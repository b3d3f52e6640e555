import { basename, join } from 'node:path';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkCurrentRun } from './check-current-run.ts';
import { checkDistIntent } from './check-dist-intent.ts';
import { listNames } from './list-names.ts';

type Sink = RunSink;

/** A current-edition run: vm.log.md and root.prose.md, and no state.md (docs/editions.md: the marker files decide). */
export function isCurrentRun(path: string): boolean {
  return (
    isKind(path, 'dir') &&
    isKind(join(path, 'vm.log.md'), 'file') &&
    isKind(join(path, 'root.prose.md'), 'file') &&
    !isKind(join(path, 'state.md'), 'file')
  );
}

/**
 * An `<openprose-root>` of the current edition: not `.prose/` nor holding one, with runs/ holding at least one
 * current run (a v0 `.prose/` holds `runs/` too, and stays the prose-dir verifier's).
 */
export function isCurrentRoot(path: string): boolean {
  if (!isKind(path, 'dir') || basename(path) === '.prose' || isKind(join(path, '.prose'), 'dir')) return false;
  return runEntries(path).some((name) => isCurrentRun(join(path, 'runs', name)));
}

/** dist/, then every entry of runs/: a current run is checked under `runs/{id}/`; anything else is named. */
export function checkCurrentRoot(root: string, sink: Sink): void {
  checkDistIntent(root, sink);
  for (const name of runEntries(root)) {
    const run = join(root, 'runs', name);
    if (isCurrentRun(run)) checkCurrentRun(run, sink.at(`runs/${name}`), false);
    else
      sink.add('root.run', `runs/${name} is not a current-edition run (vm.log.md and root.prose.md, no state.md)`, {
        file: `runs/${name}`,
      });
  }
}

function runEntries(root: string): string[] {
  return listNames(join(root, 'runs'));
}
