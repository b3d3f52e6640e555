import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.ts';
import type { Edition } from '../../src/core/editions.ts';
import type { ProseError } from '../../src/core/errors.ts';
import { editionRunDir } from '../../src/core/seed-layout.ts';
import { inEditionOf, type Mutant } from '../../src/selftest/mutant.ts';
import { SQLITE_CONTROL } from '../../src/selftest/mutants/index.ts';
import { SQL_LEDGER_MUTANTS } from '../../src/selftest/mutants/sql-ledger.ts';
import { verifyPath } from '../../src/verify/registry.ts';
import { captureIo } from '../helpers/temp-suite.ts';
import { tempEnv } from '../helpers/temp-env.ts';

// The SQL ledger's tamperings (issue #33 item 5) as sqlite mutants: the suite kills each through what a reader of
// the backend sees, and `verify` on the state.db each one wrote names it by the rule its tampering breaks.
const SELF = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
const VM = { role: 'vm' } as const;
const named = (name: string) => SQL_LEDGER_MUTANTS.find((m) => m.name === name)!;
// 154 bytes of content make a length byte of 0x9a: the version's bytes are not UTF-8 (world-model.yaml says why).
const NOT_UTF8 = 'a'.repeat(154);

/**
 * The rules verify reports on the state.db the mutant's backend wrote in `edition` after a few commits, then the
 * codes of the commits its own backend refused (`refused:E_CORRUPT`), if any.
 */
async function rulesOn(m: Mutant, edition: Edition): Promise<string[]> {
  const env = tempEnv();
  const b = await inEditionOf(m, edition).factory.open({ ...env, edition });
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
    const { findings } = await verifyPath(join(editionRunDir(env.projectDir, run, edition), 'state.db'));
    return [...[...new Set(findings.map((f) => f.rule))].sort(), ...refused];
  } finally {
    await b.close();
    env.cleanup();
  }
}

for (const edition of ['v0', 'current'] as const) {
  test(`${edition}: the sqlite mutant harness with no bug writes a state.db verify finds nothing in`, async () => {
    assert.equal(await rulesOn(SQLITE_CONTROL, edition), []);
  });
  test(`${edition}: a commit chained to the node's first receipt is wm.chain.prev`, async () => {
    assert.equal(await rulesOn(named('sqlite-receipt-prev-first'), edition), ['wm.chain.prev']);
  });
  test(`${edition}: a version stored as text is wm.bin-hash`, async () => {
    assert.equal(await rulesOn(named('sqlite-version-as-text'), edition), ['wm.bin-hash']);
  });
  test(`${edition}: a published row left at the first version is wm.published-match`, async () => {
    assert.equal(await rulesOn(named('sqlite-published-first'), edition), ['wm.published-match']);
  });
}

test('v0: a receipt row rewritten in place no longer hashes to its content_hash: wm.receipt.hash', async () => {
  // The backend reads its own chain before the next commit and refuses it too.
  assert.equal(await rulesOn(named('sqlite-receipt-rewritten'), 'v0'), ['wm.receipt.hash', 'refused:E_CORRUPT']);
});

test("current (no content_hash column): a rewritten row breaks the next receipt's prev: wm.chain.prev", async () => {
  assert.equal(await rulesOn(named('sqlite-receipt-rewritten'), 'current'), ['wm.chain.prev']);
});

test("current: v0's bindings column kind is db.column-missing (binding); in v0 the same store is clean", async () => {
  assert.equal(await rulesOn(named('sqlite-current-kind-column'), 'current'), ['db.column-missing']);
  assert.equal(await rulesOn(named('sqlite-current-kind-column'), 'v0'), []);
});

test('selftest kills every SQL ledger mutant in the current edition, the sqlite control surviving', async () => {
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
