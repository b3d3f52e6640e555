import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson, receiptHash } from '../../../src/canon/index.ts';
import type { Finding } from '../../../src/verify/finding.ts';
import { LEDGER_RULES } from '../../../src/verify/kit/ledger-rules.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { REACTOR_DIR } from '../../canon/vectors.ts';

// The same receipt ledger, laid out as a Reactor receipts.json and as a run directory's receipts/{node}.jsonl, gets
// the same ledger findings: same rule after the prefix, same node, same position in the node's chain, same message.
type Rec = Record<string, any>;

/** inbox-triage's ledger: it has renders that moved no fingerprint and a failed receipt whose semantic_diff is {}. */
const reference = (): Rec[] => JSON.parse(readFileSync(join(REACTOR_DIR, 'inbox-triage', 'receipts.json'), 'utf8'));

async function ledgerFindings(list: Rec[]): Promise<{ reactor: string[]; runDir: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'ledger-shapes-'));
  try {
    const reactorDir = join(root, 'reactor');
    mkdirSync(join(reactorDir, 'world-models'), { recursive: true });
    writeFileSync(join(reactorDir, 'receipts.json'), canonicalJson(list) + '\n');
    const runDir = join(root, 'run');
    mkdirSync(join(runDir, 'receipts'), { recursive: true });
    const byNode = new Map<string, Rec[]>();
    for (const r of list) byNode.set(r.node, [...(byNode.get(r.node) ?? []), r]);
    for (const [node, rs] of byNode)
      writeFileSync(join(runDir, 'receipts', `${node}.jsonl`), rs.map((r) => canonicalJson(r) + '\n').join(''));
    // Where each global receipts.json index sits in its node's chain (the run-dir shape reports that position).
    const position = list.map((r, i) => list.slice(0, i).filter((x) => x.node === r.node).length);
    const reactor = await verifyPath(reactorDir, { kind: 'reactor' });
    const wm = await verifyPath(runDir, { kind: 'world-model' });
    return {
      reactor: normalize(reactor.findings, 'reactor.', (i) => position[i]!),
      runDir: normalize(wm.findings, 'wm.', (i) => i),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Ledger findings only (not the world-model tree's), prefix dropped, each receipt as node#position. */
function normalize(findings: Finding[], prefix: string, pos: (index: number) => number): string[] {
  return findings
    .filter((f) => f.rule.startsWith(prefix) && f.rule.slice(prefix.length) in LEDGER_RULES)
    .map(
      (f) =>
        `${f.rule.slice(prefix.length)} ${f.severity} ${f.node}#${f.receipt === undefined ? '-' : pos(f.receipt)} ${f.message}`,
    )
    .sort();
}

test('the reference ledger as it is: no ledger finding in either shape (renders that moved nothing, a failed receipt without a reason)', async () => {
  const list = reference();
  assert.ok(
    list.some((r) => r.status === 'failed' && !('failure_reason' in r.semantic_diff)),
    'the vector still has a failed receipt without a reason',
  );
  const { reactor, runDir } = await ledgerFindings(list);
  assert.equal(reactor, []);
  assert.equal(runDir, []);
});

test('a tampered ledger: both shapes find the same things', async () => {
  const list = reference();
  const lastOf = (node: string) => list.map((r) => r.node).lastIndexOf(node);
  const skipped = list.findIndex((r, i) => r.status === 'skipped' && lastOf(r.node) === i);
  assert.ok(skipped >= 0);
  list[skipped]!.fingerprints = { ...list[skipped]!.fingerprints, extra: 'moved' }; // status.copy-forward
  list[skipped]!.content_hash = receiptHash(list[skipped]!);
  const failed = list.findIndex((r) => r.status === 'failed');
  list[failed]!.fingerprints = { '@atomic': 'sha256:' + 'ab'.repeat(32) }; // status.copy-forward, hash left stale
  const other = list.findIndex((r, i) => i > 0 && r.node === list[0]!.node);
  list[other]!.prev = null; // chain.prev (and a stale hash)
  const { reactor, runDir } = await ledgerFindings(list);
  for (const rule of ['status.copy-forward', 'chain.prev', 'receipt.hash'])
    assert.ok(
      reactor.some((f) => f.startsWith(`${rule} `)),
      `${rule} in ${reactor.join('\n')}`,
    );
  assert.equal(runDir, reactor);
});

test('a wrong schema and a broken cost: the same in both shapes', async () => {
  const list = reference();
  list[3]!.schema = 'x';
  list[5]!.cost = { provider: '' };
  const { reactor, runDir } = await ledgerFindings(list);
  assert.ok(reactor.length >= 2, reactor.join('\n'));
  assert.equal(runDir, reactor);
});

test("a newer runtime's ledger (receipt-forward-compat): the same warnings in both shapes, its chain still checked", async () => {
  const list = reference();
  const lastOf = (node: string) => list.map((r) => r.node).lastIndexOf(node);
  const ends = [...new Set(list.map((r) => r.node))].map(lastOf).filter((i) => list[i]!.prev !== null);
  assert.ok(ends.length >= 2, 'two nodes with more than one receipt');
  const [a, b] = ends as [number, number];
  list[a]!.as_of = '2026-07-01T00:00:00Z';
  list[a]!.content_hash = receiptHash(list[a]!);
  list[b]!.sig = { scheme: 'ed25519', signature: 'abc' };
  list[b]!.content_hash = receiptHash(list[b]!);
  const clean = await ledgerFindings(list);
  assert.equal(
    clean.reactor.map((f) => f.split(' ').slice(0, 2).join(' ')),
    ['receipt.signer-unverified warning', 'receipt.unknown-key warning'],
  );
  assert.equal(clean.runDir, clean.reactor);
  list[a]!.prev = 'sha256:' + 'cd'.repeat(32);
  list[a]!.content_hash = receiptHash(list[a]!);
  const broken = await ledgerFindings(list);
  assert.equal(
    broken.reactor.map((f) => f.split(' ').slice(0, 2).join(' ')),
    ['chain.prev error', 'receipt.signer-unverified warning', 'receipt.unknown-key warning'],
  );
  assert.equal(broken.runDir, broken.reactor);
});

test.run();
