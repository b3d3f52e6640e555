import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { nativeSqlite } from '../../../src/sqlite/index.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { captureIo } from '../../helpers/temp-suite.ts';
import { textDb } from '../state-db/current-text-db.ts';
import { ADDRESS, plantLedger } from '../state-db/ledger-rows.ts';
import { execOn, seedDb } from '../state-db/seed-db.ts';

const STALE = 'proj.world_model_published.stale';

/** A current-edition state.db (the text's DDL and rows through the real sqlite3) with the ledger of ledger-rows.ts. */
async function currentDb() {
  const t = textDb();
  await plantLedger({ runDir: dirname(t.db), db: t.db, exec: execOn(t.db), cleanup: () => {} }, () => {}, 'current');
  return t;
}

/** SQL run by the real sqlite3 CLI, as an author tampering by hand would. */
function sqlite3(db: string, sql: string): string {
  const r = spawnSync('/usr/bin/sqlite3', ['-bail', db, sql], { encoding: 'utf8' });
  assert.is(r.stderr, '');
  return r.stdout;
}

/** SQL run through node:sqlite, the other engine a writer may use. */
function nodeSqlite(db: string, sql: string): void {
  const d = new (nativeSqlite()!.DatabaseSync)(db);
  try {
    d.exec(sql);
  } finally {
    d.close();
  }
}

async function cli(argv: string[]) {
  const c = captureIo({});
  const code = await verifyCommand.run(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The canonical tables as the real sqlite3 prints them: every column of every row. */
const canonical = (db: string) =>
  sqlite3(
    db,
    'SELECT * FROM receipt ORDER BY id; SELECT version, node, hex(artifact) FROM world_model_version ORDER BY version',
  );
const OLDER = `UPDATE world_model_published SET version = '${ADDRESS.v1}' WHERE node = 'summary'`;

test('a stale published pointer planted by the sqlite3 CLI is a warning (not an error) naming the rebuild', async () => {
  const t = await currentDb();
  try {
    sqlite3(t.db, OLDER);
    const before = sha(t.db);
    const { findings } = await verifyPath(t.db);
    assert.equal(
      findings.map((f) => [f.rule, f.severity, f.table, f.row]),
      [[STALE, 'warning', 'world_model_published', "node='summary'"]],
    );
    assert.match(
      findings[0]!.message,
      new RegExp(`says ${ADDRESS.v1} .* is ${ADDRESS.v2}: rebuildable: run verify --rebuild-projections`),
    );
    const r = await cli([t.db]);
    assert.is(r.code, 0, 'a warning is not a failed verify');
    assert.is(sha(t.db), before, 'verify reads only');
  } finally {
    t.cleanup();
  }
});

test('--rebuild-projections lists exactly the stale row, bindings as not derivable, and leaves the file byte-identical', async () => {
  const t = await currentDb();
  try {
    sqlite3(t.db, OLDER);
    const before = sha(t.db);
    const json = await cli(['--rebuild-projections', t.db, '--format', 'json']);
    assert.is(json.code, 0, json.err);
    const body = JSON.parse(json.out);
    assert.equal(body.plans, [
      {
        table: 'world_model_published',
        derivedFrom: body.plans[0].derivedFrom,
        changes: [{ op: 'update', node: 'summary', from: ADDRESS.v1, to: ADDRESS.v2 }],
        held: [],
      },
    ]);
    assert.is(body.written, 0);
    assert.ok(body.notDerivable.some((n: { table: string }) => n.table === 'bindings'));
    const text = await cli(['--rebuild-projections', t.db]);
    assert.match(text.out, new RegExp(`update node='summary' version ${ADDRESS.v1} -> ${ADDRESS.v2}`));
    assert.match(text.out, /bindings: not derivable/);
    assert.match(text.out, /1 rows to write; nothing written/);
    assert.is(sha(t.db), before, 'a plan changes nothing');
  } finally {
    t.cleanup();
  }
});

test('--write fixes the pointer in one transaction, touches no canonical row, and verify is clean after', async () => {
  const t = await currentDb();
  try {
    nodeSqlite(t.db, OLDER);
    // A node that never rendered but has a pointer (delete), and a rendered node with none (insert).
    nodeSqlite(
      t.db,
      `INSERT INTO world_model_published (node, version) VALUES ('ghost', '${ADDRESS.n1}');
       DELETE FROM world_model_published WHERE node = 'notes'`,
    );
    const before = canonical(t.db);
    const plan = JSON.parse((await cli(['--rebuild-projections', t.db, '--format', 'json'])).out);
    assert.equal(plan.plans[0].changes, [
      { op: 'delete', node: 'ghost', from: ADDRESS.n1 },
      { op: 'insert', node: 'notes', to: ADDRESS.n1 },
      { op: 'update', node: 'summary', from: ADDRESS.v1, to: ADDRESS.v2 },
    ]);
    const w = await cli(['--rebuild-projections', t.db, '--write']);
    assert.is(w.code, 0, w.err);
    assert.match(w.out, /3 rows written in one transaction/);
    assert.is(canonical(t.db), before, 'receipt and world_model_version are byte-identical');
    assert.equal((await verifyPath(t.db)).findings, []);
    assert.equal(
      sqlite3(t.db, 'SELECT node, version FROM world_model_published ORDER BY node'),
      `notes|${ADDRESS.n1}\nsummary|${ADDRESS.v2}\n`,
    );
  } finally {
    t.cleanup();
  }
});

test('--write is refused (exit 3) while a sqlite3 process holds the write lock, and writes nothing', async () => {
  const t = await currentDb();
  const holder = spawn('/usr/bin/sqlite3', [t.db], { stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    sqlite3(t.db, OLDER);
    const before = sha(t.db);
    holder.stdin.write('BEGIN IMMEDIATE;\n.print held\n');
    await new Promise<void>((ok) => holder.stdout.once('data', () => ok()));
    const w = await cli(['--rebuild-projections', t.db, '--write']);
    assert.is(w.code, 3, w.out + w.err);
    assert.match(w.err, /locked/);
    holder.stdin.end('ROLLBACK;\n');
    await new Promise((ok) => holder.once('exit', ok));
    assert.is(sha(t.db), before);
  } finally {
    holder.kill();
    t.cleanup();
  }
});

test('a node whose chain has an error is held: no stale warning, and the rebuild writes nothing for it', async () => {
  const t = await currentDb();
  try {
    // The last summary receipt rewritten in place (the chain still reads), and its pointer sent back to v1.
    sqlite3(t.db, `UPDATE receipt SET prev = NULL WHERE id = 4; ${OLDER}`);
    const { findings } = await verifyPath(t.db);
    assert.ok(findings.some((f) => f.rule === 'wm.chain.prev'));
    assert.not.ok(findings.some((f) => f.rule === STALE));
    const plan = JSON.parse((await cli(['--rebuild-projections', t.db, '--format', 'json'])).out);
    assert.equal(plan.plans[0].changes, []);
    assert.equal(plan.plans[0].held, [
      { node: 'summary', why: 'its receipt chain has error findings: fix the ledger first' },
    ]);
  } finally {
    t.cleanup();
  }
});

test('a current state.db whose ledger is not judged (receipt is a view) gets no plan, said so, not an empty one', async () => {
  const t = await currentDb();
  try {
    sqlite3(t.db, `DROP TABLE receipt; CREATE VIEW receipt AS SELECT 1 AS id; ${OLDER}`);
    const r = await cli(['--rebuild-projections', t.db]);
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /world_model_published: no plan: no ledger was judged here/);
    assert.match(r.out, /0 rows to write/);
  } finally {
    t.cleanup();
  }
});

test('a v0 state.db keeps wm.published-match (error), and --rebuild-projections on it is a usage error', async () => {
  const s = await seedDb();
  try {
    await plantLedger(s);
    await s.exec(OLDER);
    assert.equal(
      (await verifyPath(s.db)).findings.map((f) => [f.rule, f.severity]),
      [['wm.published-match', 'error']],
    );
    const r = await cli(['--rebuild-projections', s.db]);
    assert.is(r.code, 2);
    assert.match(r.err, /v0 state\.db: the v0 texts name no projections/);
    assert.is((await cli(['--write', s.db])).code, 2, '--write alone is a usage error');
  } finally {
    s.cleanup();
  }
});

test.run();
