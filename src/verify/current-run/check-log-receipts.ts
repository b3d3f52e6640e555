import type { RunSink } from './run-sink.ts';
import type { RunChain } from './check-run-receipts.ts';
import type { LineMarker } from './read-vm-log.ts';
import type { Outcome } from './vm-log-marker.ts';

type Sink = RunSink;
const STATUS_OF: Partial<Record<Outcome, string>> = { rendered: 'rendered', skipped: 'skipped', error: 'failed' };

/**
 * vm.log.md against receipts/ (fs "The Commit-and-Sign Protocol" step 5: the receipt and its marker are appended
 * together): a node with a rendered receipt has a rendered marker, as upstream's smoke checks; a marker naming an
 * outcome names a node whose chain holds a receipt of that status. A bare parallel `Na→ a ✓` takes its outcome
 * from the receipt (decision vm-log-parallel-outcome).
 */
export function checkLogAgainstReceipts(
  markers: readonly LineMarker[],
  chains: Map<string, RunChain>,
  sink: Sink,
): void {
  const renderedIn = new Set<string>();
  for (const m of markers) {
    if (m.kind !== 'outcome' && m.kind !== 'branch') continue;
    if (m.outcome === 'rendered' || (m.kind === 'branch' && m.outcome === 'done')) renderedIn.add(m.node);
    const status = STATUS_OF[m.outcome];
    if (status === undefined) continue;
    if (!chains.get(m.node)?.statuses.includes(status))
      sink.add(
        'vmlog.receipt',
        `line ${m.line} logs ${m.node} ${m.outcome}, but receipts/${m.node}.jsonl has no ${status} receipt`,
        {
          file: 'vm.log.md',
          line: m.line,
        },
      );
  }
  for (const [node, chain] of chains) {
    const at = chain.statuses.indexOf('rendered');
    if (at >= 0 && !renderedIn.has(node))
      sink.add(
        'vmlog.rendered',
        `receipts/${node}.jsonl line ${chain.file.lines[at]} is rendered, but vm.log.md has no "${node} ✓ rendered"`,
        {
          file: 'vm.log.md',
        },
      );
  }
}
