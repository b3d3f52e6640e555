import { VM } from '../core/actor.ts';
import type { Backend } from '../core/backend.ts';
import type { OpResults } from '../core/ops.ts';

const COMMIT = /^commit w(\d+)_(\d+)$/;

interface AckedCommit {
  key: string;
  writer: number;
  i: number;
  r: OpResults['commitWorldModel'];
}

/**
 * After a crash or a race: every acknowledged world-model commit is in its node's receipt ledger, its version reads
 * back as the files it committed, and each node publishes its last acknowledged commit or a later one. With `exact`
 * (every writer finished), each node's ledger holds one receipt per acknowledged commit.
 * The workload commits `truth.json` = {writer, i} to node-{writer} (workload.ts), so the files are known by key.
 */
export async function checkCommits(
  b: Backend,
  run: string,
  acks: Map<string, unknown>,
  exact: boolean,
): Promise<string | undefined> {
  const byNode = new Map<string, AckedCommit[]>();
  for (const [key, result] of acks) {
    const m = COMMIT.exec(key);
    if (!m) continue;
    const node = `node-${m[1]}`;
    const r = result as OpResults['commitWorldModel'];
    byNode.set(node, [...(byNode.get(node) ?? []), { key, writer: Number(m[1]), i: Number(m[2]), r }]);
  }
  for (const [node, commits] of byNode) {
    const { receipts } = await b.call('listReceipts', { run, node }, VM);
    const hashes = receipts.map((x) => x.content_hash);
    if (exact && receipts.length !== commits.length)
      return `${node} has ${commits.length} acknowledged commits but its ledger holds ${receipts.length} receipts`;
    for (const c of commits) {
      if (!hashes.includes(c.r.contentHash))
        return `acknowledged commit ${c.key.slice(7)} (receipt ${c.r.contentHash}) is missing from ${node}'s ledger`;
      if (c.r.version === null) continue;
      const { files } = await b.call('readVersion', { run, node, version: c.r.version }, VM);
      if (files['truth.json'] !== JSON.stringify({ writer: c.writer, i: c.i }))
        return `acknowledged commit ${c.key.slice(7)}: version ${c.r.version} reads back ${JSON.stringify(files['truth.json'])}`;
    }
    // A crash may leave a later, unacknowledged commit published (its receipt not yet appended), never an older one.
    const last = commits.reduce((x, y) => (y.i > x.i ? y : x));
    const pub = await b.call('readPublished', { run, node }, VM);
    const at = publishedItem(pub.files['truth.json']);
    if (last.r.version !== null && !(at && at.writer === last.writer && at.i >= last.i))
      return `${node} publishes ${pub.version ?? 'nothing'}, older than its last acknowledged commit ${last.key.slice(7)}`;
  }
  return undefined;
}

function publishedItem(truth: string | undefined): { writer: number; i: number } | undefined {
  try {
    const v = JSON.parse(truth ?? '') as { writer?: unknown; i?: unknown };
    return typeof v.writer === 'number' && typeof v.i === 'number' ? { writer: v.writer, i: v.i } : undefined;
  } catch {
    return undefined;
  }
}
