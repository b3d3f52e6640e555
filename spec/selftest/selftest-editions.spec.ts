import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { inEditionOf } from '../../src/selftest/mutant.ts';
import { MUTANTS } from '../../src/selftest/mutants/index.ts';
import { SQL_LEDGER_MUTANTS } from '../../src/selftest/mutants/sql-ledger.ts';
import { judgeMutant } from '../../src/selftest/run-selftest.ts';
import { captureIo } from '../helpers/temp-suite.ts';

// A mutant judged in the current edition (src/selftest/mutant.ts: edition, areas): its storage is the current tree,
// its kills are held to the results of the backend it is a mutant of (filesystem, or sqlite for the current SQL
// subagent ones) in that edition, and its verdict says so.
const SELF = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
// Each current-edition mutant names the area judging it: the layout ones current-layout, the render and SQL subagent
// ones session-protocol (render-protocol.yaml, session-protocol-current-sql.yaml), the reading ones receipts
// (receipt-readings.yaml, under the reading pinned). The SQL ledger tamperings are sql-ledger-mutants.spec.ts's.
const LEDGER = new Set(SQL_LEDGER_MUTANTS.map((m) => m.name));
const judgedHere = MUTANTS.filter((m) => m.edition === 'current' && !LEDGER.has(m.name));
const inArea = (area: string) => judgedHere.filter((m) => m.areas?.includes(area));
const CURRENT = inArea('current-layout');

async function judgedIn(area: string, mutants: readonly { name: string }[]) {
  const c = captureIo();
  const args = ['selftest', '--area', area, '--format', 'json', '--jobs', '1'];
  const code = await main([...args, ...mutants.flatMap((m) => ['--mutant', m.name])], { ...c.io, self: SELF });
  assert.is(code, 0, c.err());
  const result = JSON.parse(c.out()) as { verdicts: { mutant: string; edition: string; killedBy: string[] }[] };
  assert.is(result.verdicts.length, mutants.length);
  for (const v of result.verdicts) {
    assert.is(v.edition, 'current', v.mutant);
    assert.ok(v.killedBy.length > 0 && v.killedBy.every((id) => id.startsWith(`${area}/`)), v.mutant);
  }
}

test('every current-layout mutant is killed by a current-layout case, its verdict naming the edition', async () => {
  assert.ok(CURRENT.length >= 9, 'the current edition has its mutants');
  await judgedIn('current-layout', CURRENT);
});

test('every render and SQL subagent mutant is killed by a session-protocol case, judged in the current edition', async () => {
  const render = inArea('session-protocol');
  assert.ok(render.length >= 3, 'the render contract has its mutants');
  assert.ok(
    render.filter((m) => m.reference === 'sqlite').length >= 2,
    'the SQL subagent contract has its mutants, judged against sqlite@current',
  );
  const readings = inArea('receipts');
  assert.is(judgedHere.length, CURRENT.length + render.length + readings.length);
  await judgedIn('session-protocol', render);
});

test('every reading mutant of the current edition is killed by a receipts case of the reading it pins', async () => {
  const readings = inArea('receipts');
  assert.ok(readings.length >= 2 && readings.every((m) => m.pinned), 'before-render and render-supplied have theirs');
  await judgedIn('receipts', readings);
});

test('the same bug judged in v0 is not killed: the kill comes through the current edition', async () => {
  const suite = builtinSuite();
  const layout = { ...suite, cases: suite.cases.filter((c) => c.area === 'current-layout') };
  const m = inEditionOf(
    CURRENT.find((x) => x.name === 'vm-log-header-without-root')!,
    'v0',
  );
  // Held to every current-layout case as if each passed in v0: each is skipped there, so none can kill.
  const good = { filesystem: new Set(layout.cases.map((c) => c.id)) };
  const v = await judgeMutant(m, layout, good, DEFAULT_DECISIONS);
  assert.equal([v.edition, v.killedBy], ['v0', []]);
});

test('--list names the edition each mutant is judged in', async () => {
  const c = captureIo();
  assert.is(await main(['selftest', '--list'], { ...c.io, self: SELF }), 0);
  assert.match(c.out(), /^vm-log-line-rewritten\s+current\s+a node's new marker/m);
  assert.match(c.out(), /^const-rebind-allowed\s+v0\s+/m);
});

test.run();
