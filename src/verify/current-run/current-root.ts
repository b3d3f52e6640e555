import { basename, join } from 'node:path';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkCurrentRun } from './check-current-run.ts';
import { checkDistIntent } from './check-dist-intent.ts';
import { checkDurableRoot } from './check-durable-root.ts';
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

/** dist/, then every entry of runs/: a current run is checked under `runs/{id}/`; anything else is named. Then state/. */
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
  checkDurableRoot(root, nodesWithRunReceipts(root), sink);
}

/** The nodes some current run under runs/ has a receipts/{node}.jsonl for: each run checks those durable nodes. */
function nodesWithRunReceipts(root: string): Set<string> {
  const nodes = new Set<string>();
  for (const name of runEntries(root))
    if (isCurrentRun(join(root, 'runs', name)))
      for (const f of listNames(join(root, 'runs', name, 'receipts')))
        if (f.endsWith('.jsonl')) nodes.add(f.slice(0, -6));
  return nodes;
}

function runEntries(root: string): string[] {
  return listNames(join(root, 'runs'));
}
