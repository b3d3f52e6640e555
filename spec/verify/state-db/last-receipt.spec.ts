import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPath } from '../../../src/verify/registry.ts';
import { currentRunDb } from './current-run-db.ts';

// The last receipt of a chain rewritten in place on the current text's receipt table, which keeps no content_hash
// (issue #33; decision verify-db-last-receipt): no later prev names its hash, so only what the rest of the database
// says of it can catch the rewrite - the stored versions (its @atomic) and the status rules (against its
// predecessor). The receipts of node n: 1 rendered, 2 skipped, 3 rendered (the last).
async function rulesAfter(tamper: string): Promise<string[]> {
  const r = await currentRunDb(['first\n', 'first\n', 'second\n']);
  try {
    if (tamper) r.sql(tamper);
    const { findings } = await verifyPath(r.dir);
    return [...new Set(findings.map((f) => f.rule))].sort();
  } finally {
    r.cleanup();
  }
}

const ZERO = `'sha256:' || lower(hex(zeroblob(32)))`;

test('untouched, the run verifies clean', async () => {
  assert.equal(await rulesAfter(''), []);
});

test("the last receipt's @atomic rewritten: no stored version has that address (wm.atomic-version)", async () => {
  const rules = await rulesAfter(
    `UPDATE receipt SET fingerprints = json_set(fingerprints, '$."@atomic"', ${ZERO}) WHERE id = 3`,
  );
  // The pointer is a projection here and is not rebuilt from a chain with an error (decision sql-projections).
  assert.equal(rules, ['wm.atomic-version']);
});

test('the last receipt turned from rendered to skipped while its fingerprints moved: a status rule catches it', async () => {
  const rules = await rulesAfter("UPDATE receipt SET status = 'skipped' WHERE id = 3");
  assert.ok(rules.length > 0 && rules.every((r) => r.startsWith('wm.')), rules.join());
});

test('the last receipt rewritten where nothing else points (its cost): undetectable without content_hash', async () => {
  // Pinned by decision verify-db-last-receipt; a stored or published receipt address would turn this into a finding.
  assert.equal(await rulesAfter("UPDATE receipt SET cost = json_set(cost, '$.model', 'm2') WHERE id = 3"), []);
});

test('the same rewrite one row earlier breaks the next prev (wm.chain.prev)', async () => {
  assert.equal(await rulesAfter("UPDATE receipt SET cost = json_set(cost, '$.model', 'm2') WHERE id = 2"), [
    'wm.chain.prev',
  ]);
});

test.run();
