import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPath } from '../../../src/verify/registry.ts';
import { MAX_ROWS_CHECKED } from '../../../src/verify/state-db/query-budget.ts';
import { ledgerDb } from './ledger-db.ts';

/** Rules verify reports on the backend's ledger after `tamper`. */
async function rulesAfter(tamper: string): Promise<string[]> {
  const l = await ledgerDb();
  try {
    if (tamper) await l.exec(tamper);
    const { kind, findings } = await verifyPath(l.db);
    assert.is(kind, 'state-db');
    return [...new Set(findings.map((f) => f.rule))].sort();
  } finally {
    l.cleanup();
  }
}

test('a state.db our sqlite backend wrote with rendered, skipped and failed commits verifies with no finding', async () => {
  assert.equal(await rulesAfter(''), []);
});

test('a forked prev (the failed receipt chained to the first, not its predecessor) is wm.chain.prev', async () => {
  const rules = await rulesAfter(
    'UPDATE receipt SET prev = (SELECT content_hash FROM receipt WHERE id = 1) WHERE id = 3',
  );
  assert.ok(rules.includes('wm.chain.prev'), rules.join());
});

test('receipt content rewritten in place is wm.receipt.hash', async () => {
  assert.equal(await rulesAfter("UPDATE receipt SET contract_fingerprint = 'c2' WHERE id = 5"), ['wm.receipt.hash']);
});

test("status 'bogus' in our shape breaks the table's CHECK: db.open names the quick_check failure", async () => {
  assert.equal(
    await rulesAfter("PRAGMA ignore_check_constraints = ON; UPDATE receipt SET status = 'bogus' WHERE id = 2"),
    ['db.open'],
  );
});

/** The receipt table rebuilt in the current sqlite.md shape: its columns, no content_hash, no constraints. */
const CURRENT_SHAPE = `CREATE TABLE current_receipt AS SELECT id, node, contract_fingerprint, wake, input_fingerprints,
  fingerprints, semantic_diff, prev, status, cost, sig, created_at FROM receipt;
  DROP TABLE receipt; ALTER TABLE current_receipt RENAME TO receipt;`;

test('the current shape (no content_hash column) verifies clean: the hashes are computed to follow the chain', async () => {
  assert.equal(await rulesAfter(CURRENT_SHAPE), []);
});

test("current shape: status 'bogus' with prev set to another hash is caught (the issue's passing example)", async () => {
  const rules = await rulesAfter(
    `${CURRENT_SHAPE} UPDATE receipt SET status = 'bogus', prev = (SELECT prev FROM receipt WHERE id = 5) WHERE id = 2`,
  );
  assert.equal(rules, ['wm.chain.prev', 'wm.receipt.field']);
});

test('current shape: a receipt rewritten in place breaks the next prev (wm.chain.prev)', async () => {
  assert.equal(
    await rulesAfter(`${CURRENT_SHAPE} UPDATE receipt SET cost = json_set(cost, '$.model', 'm2') WHERE id = 2`),
    ['wm.chain.prev'],
  );
});

test('a receipt column that is not JSON is db.receipt-json and its node is not checked further', async () => {
  assert.equal(await rulesAfter("UPDATE receipt SET wake = '{oops' WHERE id = 5"), ['db.receipt-json']);
});

test('a version blob that does not hash to its address is wm.bin-hash', async () => {
  assert.equal(await rulesAfter("UPDATE world_model_version SET artifact = X'00' WHERE node = 'notes'"), [
    'wm.bin-hash',
  ]);
});

test('published pointing at an older version is wm.published-match', async () => {
  const older = '(SELECT fingerprints ->> \'$."@atomic"\' FROM receipt WHERE id = 1)';
  assert.equal(await rulesAfter(`UPDATE world_model_published SET version = ${older} WHERE node = 'summary'`), [
    'wm.published-match',
  ]);
});

test('a rendered version whose row is gone is wm.atomic-version', async () => {
  const older = '(SELECT fingerprints ->> \'$."@atomic"\' FROM receipt WHERE id = 1)';
  assert.equal(await rulesAfter(`DELETE FROM world_model_version WHERE node = 'summary' AND version = ${older}`), [
    'wm.atomic-version',
  ]);
});

test('a receipt view (an endless recursive CTE) is db.not-a-table and never read', async () => {
  const view =
    'DROP TABLE receipt; CREATE VIEW receipt AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) ' +
    "SELECT i AS id, 'x' AS node FROM n";
  assert.equal(await rulesAfter(view), ['db.not-a-table']);
});

test('receipt rows past the cap are db.budget and the cut ledger is not judged (no stale-pointer finding)', async () => {
  const many =
    `INSERT INTO receipt (node, contract_fingerprint, wake, input_fingerprints, fingerprints, semantic_diff, prev, ` +
    `status, cost, sig, content_hash) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT ` +
    `${MAX_ROWS_CHECKED}) SELECT 'zz' || i, 'c', '{}', '[]', '{}', '{}', NULL, 'rendered', '{}', '{}', 'h' || i FROM n`;
  assert.equal(await rulesAfter(many), ['db.budget']);
});

test.run();
