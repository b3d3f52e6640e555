import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.ts';
import type { Edition } from '../../src/core/editions.ts';
import type { ProseError } from '../../src/core/errors.ts';
import { editionRunDir } from '../../src/core/seed-layout.ts';
import { inEditionOf, type Mutant } from '../../src/selftest/mutant.ts';
import { POSTGRES_CONTROL, SQLITE_CONTROL } from '../../src/selftest/mutants/index.ts';
import type { PgMemFactory } from '../../src/selftest/postgres-mutant.ts';
import { probingReader } from '../../src/backends/postgres/index.ts';
import { checkPgSchema } from '../../src/verify/postgres/check-pg-schema.ts';
import type { PgSchemaReader } from '../../src/verify/postgres/pg-reader.ts';
import { SQL_LEDGER_MUTANTS } from '../../src/selftest/mutants/sql-ledger.ts';
import { verifyPath } from '../../src/verify/registry.ts';
import { captureIo } from '../helpers/temp-suite.ts';
import { tempEnv } from '../helpers/temp-env.ts';

// The SQL ledger's tamperings (issue #33 item 5) as sqlite and postgres (pg-mem) mutants: the suite kills each through
// what a reader of the backend sees, and `verify` on the state.db or schema each one wrote names it by the rule its
// tampering breaks.
const SELF = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
const VM = { role: 'vm' } as const;
const named = (name: string) => SQL_LEDGER_MUTANTS.find((m) => m.name === name)!;
// 154 bytes of content make a length byte of 0x9a: the version's bytes are not UTF-8 (world-model.yaml says why).
const NOT_UTF8 = 'a'.repeat(154);

type Env = ReturnType<typeof tempEnv>;
/** The rules verify reports on what the mutant's backend wrote for `run` (its state.db, or its pg-mem schema). */
type Verify = (m: Mutant, env: Env, run: string, edition: Edition) => Promise<string[]>;

const onStateDb: Verify = async (_m, env, run, edition) =>
  (await verifyPath(join(editionRunDir(env.projectDir, run, edition), 'state.db'))).findings.map((f) => f.rule);

const onPgSchema: Verify = async (m, env, _run, edition) => {
  const reader = probingReader(await (m.factory as PgMemFactory).openDb({ ...env, edition }));
  try {
    return (await checkPgSchema(reader as PgSchemaReader, edition)).findings.map((f) => f.rule);
  } finally {
    await reader.close();
  }
};

/**
 * The rules verify reports after a few commits of the mutant's backend in `edition`, then the codes of the commits
 * its own backend refused (`refused:E_CORRUPT`), if any.
 */
async function rulesOn(mutant: Mutant, edition: Edition): Promise<string[]> {
  const env = tempEnv();
  const m = inEditionOf(mutant, edition);
  const verify = m.reference === 'postgres' ? onPgSchema : onStateDb;
  const b = await m.factory.open({ ...env, edition });
  try {
    const { run } = await b.call('createRun', { program: 'let a = session "A"\n', programPath: 'a.prose' }, VM);
    await b.call('bind', { run, name: 'a', kind: 'let', value: 'x', executionId: null }, VM);
    const refused = new Set<string>();
    const commit = (files: Record<string, string>) =>
      b
        .call('commitWorldModel', { run, node: 'n', contract: 'c', files }, VM)
        .catch((err: ProseError) => refused.add(`refused:${err.code}`));
    await commit({ 'truth.md': 'first\n' });
    await commit({ 'truth.md': 'first\n' });
    await commit({ 'notes.md': NOT_UTF8 });
    await commit({ 'truth.md': 'second\n' });
    return [...[...new Set(await verify(m, env, run, edition))].sort(), ...refused];
  } finally {
    await b.close();
    await m.factory.dispose?.(env);
    env.cleanup();
  }
}

for (const edition of ['v0', 'current'] as const) {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const at = `${edition}, ${engine}${engine === 'postgres' ? ' on pg-mem' : ''}`;
    const control = engine === 'sqlite' ? SQLITE_CONTROL : POSTGRES_CONTROL;
    test(`${at}: the mutant harness with no bug writes state verify finds nothing in`, async () => {
      assert.equal(await rulesOn(control, edition), []);
    });
    test(`${at}: a commit chained to the node's first receipt is wm.chain.prev`, async () => {
      assert.equal(await rulesOn(named(`${engine}-receipt-prev-first`), edition), ['wm.chain.prev']);
    });
    test(`${at}: a version stored as text is wm.bin-hash`, async () => {
      assert.equal(await rulesOn(named(`${engine}-version-as-text`), edition), ['wm.bin-hash']);
    });
    // The current texts call the pointer a projection: a stale one is a warning (decision sql-projections).
    const stale = edition === 'v0' ? 'wm.published-match' : 'proj.world_model_published.stale';
    test(`${at}: a published row left at the first version is ${stale}`, async () => {
      assert.equal(await rulesOn(named(`${engine}-published-first`), edition), [stale]);
    });
  }
}

test('v0: a receipt row rewritten in place no longer hashes to its content_hash: wm.receipt.hash', async () => {
  // A commit parses only the last receipt of the run's chain (WorldModelContext.lastInRun, issue 35): the commits go
  // on, and verify alone catches the rewrite.
  assert.equal(await rulesOn(named('sqlite-receipt-rewritten'), 'v0'), ['wm.receipt.hash']);
});

test("current (no content_hash column): a rewritten row breaks the next receipt's prev: wm.chain.prev", async () => {
  assert.equal(await rulesOn(named('sqlite-receipt-rewritten'), 'current'), ['wm.chain.prev']);
});

test('postgres on pg-mem (content_hash kept in both editions): a rewritten row is wm.receipt.hash', async () => {
  // A commit reads only the head of the chain (the run's last receipt in v0, the durable head in the current edition),
  // so the commits go on in both editions and verify alone catches the rewrite.
  const m = named('postgres-receipt-rewritten');
  assert.equal(await rulesOn(m, 'v0'), ['wm.receipt.hash']);
  assert.equal(await rulesOn(m, 'current'), ['wm.receipt.hash']);
});

test("current: v0's bindings column kind is db.column-missing (binding); in v0 the same store is clean", async () => {
  assert.equal(await rulesOn(named('sqlite-current-kind-column'), 'current'), ['db.column-missing']);
  assert.equal(await rulesOn(named('sqlite-current-kind-column'), 'v0'), []);
});

test('selftest kills every SQL ledger mutant in the current edition, the sqlite and postgres controls surviving', async () => {
  const c = captureIo();
  const areas = ['world-model', 'receipts', 'sql-layout'].flatMap((a) => ['--area', a]);
  const mutants = SQL_LEDGER_MUTANTS.flatMap((m) => ['--mutant', m.name]);
  const code = await main(['selftest', ...areas, ...mutants, '--format', 'json', '--jobs', '1'], {
    ...c.io,
    self: SELF,
  });
  assert.is(code, 0, c.err());
  const result = JSON.parse(c.out()) as {
    control: { killedBy: string[] };
    verdicts: { mutant: string; edition: string; killedBy: string[] }[];
  };
  assert.equal(result.control.killedBy, []);
  assert.is(result.verdicts.length, SQL_LEDGER_MUTANTS.length);
  for (const v of result.verdicts) {
    assert.is(v.edition, 'current', v.mutant);
    assert.ok(v.killedBy.length > 0, `${v.mutant} survived`);
  }
});

test.run();
