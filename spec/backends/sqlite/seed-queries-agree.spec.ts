import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RESOLVE_SQL } from '../../../src/backends/sqlite/binding-rows.ts';
import { VM } from '../../../src/core/actor.ts';
import { cli, tempEnv } from './helpers.ts';
import { writeSeedRun } from './seed-run.ts';

/** sqlite.md's read queries that still answer right on an append-only log, run by /usr/bin/sqlite3 on our file. */
test("the seed's lookups, run by the real sqlite3 on a backend-written state.db, agree with the backend", async () => {
  const env = tempEnv('seed-agree');
  try {
    const { backend: b, run, db, outer, inner } = await writeSeedRun(env);
    const api = (name: string, executionId: number | null) => b.call('resolve', { run, name, executionId }, VM);

    // "Read a binding" (sqlite3 -json, as the seed writes it).
    const read = cli(['-json', db, "\n  SELECT value FROM bindings WHERE name = 'research'\n"]);
    assert.equal(JSON.parse(read.stdout), [{ value: (await api('research', null)).value }]);

    // "Simpler version if you know the scope chain": current scope, then parent, then root.
    const simpler = `SELECT * FROM bindings WHERE name = 'result' AND (execution_id = ${inner} OR execution_id = ${outer} OR execution_id IS NULL)
      ORDER BY execution_id DESC NULLS LAST LIMIT 1;`;
    const row = JSON.parse(cli(['-json', db, simpler]).stdout)[0];
    const fromInner = await api('result', inner);
    assert.is(row.value, fromInner.value);
    assert.is(row.execution_id, fromInner.executionId);

    // The scope-resolution CTE, as the backend runs it (the seed's walk over our frame rows), through the CLI.
    for (const [name, from] of [
      ['result', inner],
      ['chunk', inner],
      ['research', inner],
      ['result', outer],
    ] as const) {
      const sql = RESOLVE_SQL.replace(':eid', String(from)).replace(':name', `'${name}'`);
      const got = JSON.parse(cli(['-json', db, sql]).stdout)[0];
      const want = await api(name, from);
      assert.is(got.value, want.value, `${name} from ${from}`);
      assert.is(got.execution_id, want.executionId, `${name} from ${from}`);
    }

    // "Check parallel branch status": the rows are the branch history; the last row of each branch is the API's state.
    const rows = cli([
      db,
      "\n  SELECT statement_text, status FROM execution\n  WHERE json_extract(metadata, '$.parallel_id') = 'p1'\n",
    ])
      .stdout.trim()
      .split('\n');
    assert.equal(rows, ['parallel:|started', 'a|executing', 'b|executing', 'a|completed']);
    const resume = await b.call('resume', { run }, VM);
    const last: Record<string, string> = {};
    for (const r of rows.slice(1)) {
      const [branch, status] = r.split('|');
      last[branch!] = status!;
    }
    for (const [branch, status] of Object.entries(resume.parallels.p1!.branches))
      assert.is(last[branch] ?? 'pending', status, branch);

    // Resume: "Get all completed bindings" and "Get agent memory states".
    const all = cli([db, 'SELECT name, kind, value, attachment_path FROM bindings;'])
      .stdout.trim()
      .split('\n')
      .map((l) => l.split('|').slice(0, 2).join(':'))
      .sort();
    assert.equal(all, resume.bindings.map((x) => `${x.name}:${x.kind}`).sort());
    assert.is(
      cli([db, 'SELECT name, memory FROM agents;']).stdout,
      `captain|${(await b.call('readMemory', { agent: 'captain', scope: 'execution', run }, VM)).memory}\n`,
    );
    await b.close();
  } finally {
    env.done();
  }
});

test.run();
