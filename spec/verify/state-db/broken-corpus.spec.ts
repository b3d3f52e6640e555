import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPath } from '../../../src/verify/registry.ts';
import { STATE_DB_RULES } from '../../../src/verify/state-db/rules.ts';
import { plantLedger } from './ledger-rows.ts';
import { seedDb } from './seed-db.ts';
import { STATE_DB_MUTATIONS } from './state-db-mutations.ts';

test('the seed-example state.db (with an x_ table and an added column) verifies with no finding', async () => {
  const s = await seedDb();
  try {
    const r = await verifyPath(s.db);
    assert.is(r.kind, 'state-db');
    assert.equal(r.findings, []);
  } finally {
    s.cleanup();
  }
});

for (const shape of ['ours', 'current'] as const) {
  test(`the seed state.db with a world-model ledger planted in the ${shape} shape verifies with no finding`, async () => {
    const s = await seedDb();
    try {
      await plantLedger(s, undefined, shape);
      assert.equal((await verifyPath(s.db)).findings, []);
    } finally {
      s.cleanup();
    }
  });
}

test('every state-db rule has a mutation in the broken corpus', () => {
  const covered = new Set(STATE_DB_MUTATIONS.map((m) => m.rule));
  assert.equal(
    Object.keys(STATE_DB_RULES).filter((r) => !covered.has(r as never)),
    [],
  );
});

for (const m of STATE_DB_MUTATIONS) {
  test(`${m.rule}: ${m.what} is caught by ${m.rule} and nothing else`, async () => {
    const s = await seedDb();
    try {
      await m.apply(s);
      const { findings } = await verifyPath(s.db, { kind: 'state-db' });
      assert.equal([...new Set(findings.map((f) => f.rule))], [m.rule], JSON.stringify(findings, null, 1));
      const hit = findings[0]!;
      assert.is(hit.severity, STATE_DB_RULES[m.rule].severity);
      assert.is(hit.file, 'state.db');
      assert.ok(hit.hint);
      if (m.table) assert.is(hit.table, m.table);
    } finally {
      s.cleanup();
    }
  });
}

test.run();
