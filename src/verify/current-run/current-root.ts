import { basename, join } from 'node:path';
import type { RunSink } from './run-sink.ts';
import { isCurrentSqlRun } from '../edition/tree-edition.ts';
import type { Finding } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkCurrentSqlRun } from '../state-db/current-sql-run.ts';
import { STATE_DB_RULES } from '../state-db/rules.ts';
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
 * current run, filesystem or SQLite (a v0 `.prose/` holds `runs/` too, and stays the prose-dir verifier's).
 */
export function isCurrentRoot(path: string): boolean {
  if (!isKind(path, 'dir') || basename(path) === '.prose' || isKind(join(path, '.prose'), 'dir')) return false;
  return runEntries(path).some(
    (name) => isCurrentRun(join(path, 'runs', name)) || isCurrentSqlRun(join(path, 'runs', name)),
  );
}

/**
 * dist/, then every entry of runs/: a current run is checked under `runs/{id}/`, a SQLite one by its state.db (the
 * state-db rules); anything else is named. Then state/.
 */
export async function checkCurrentRoot(root: string, sink: Sink, opts: { thresholdBytes: number }): Promise<void> {
  checkDistIntent(root, sink);
  for (const name of runEntries(root)) {
    const run = join(root, 'runs', name);
    if (isCurrentRun(run)) checkCurrentRun(run, sink.at(`runs/${name}`), false);
    else if (isCurrentSqlRun(run)) await checkSqlRun(run, `runs/${name}/`, sink, opts);
    else
      sink.add(
        'root.run',
        `runs/${name} is not a current-edition run (vm.log.md and root.prose.md, or state.db beside it; no state.md)`,
        {
          file: `runs/${name}`,
        },
      );
  }
  checkDurableRoot(root, nodesWithRunReceipts(root), sink);
}

/**
 * A SQLite run's state.db, findings named from the root. Its own list first: the published check skips nodes with
 * wm.* errors in the findings so far, and another run's broken node of the same name must not hide this one's.
 */
async function checkSqlRun(run: string, prefix: string, sink: Sink, opts: { thresholdBytes: number }): Promise<void> {
  const own: Finding[] = [];
  await checkCurrentSqlRun(run, new FindingSink(STATE_DB_RULES, own, prefix), { ...opts, edition: 'current' });
  sink.out.push(...own);
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
