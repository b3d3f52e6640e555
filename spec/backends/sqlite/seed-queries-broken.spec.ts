import { copyFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SEED_CORRECTIONS } from '../../../src/backends/sqlite/seed-corrections.ts';
import { VM } from '../../../src/core/actor.ts';
import { cli, tempEnv } from './helpers.ts';
import { writeSeedRun } from './seed-run.ts';

/**
 * sqlite.md statements that are broken as written: each is run literally by /usr/bin/sqlite3 (its real error, or its
 * wrong answer on an append-only log), then its correction (docs/sqlite.md) is run and checked against the backend.
 */
test("the seed's broken statements fail or mislead as documented, and their corrections agree with the backend", async () => {
  const env = tempEnv('seed-broken');
  try {
    const { backend: b, run, db, inner } = await writeSeedRun(env);
    const scratch = `${db}.scratch`;
    copyFileSync(db, scratch);
    const resume = () => b.call('resume', { run }, VM);

    // 1. The core schema's bindings table cannot be created (on a new database: IF NOT EXISTS skips an existing one).
    const ddl = cli([':memory:', SEED_CORRECTIONS.bindingsDdl.seed]);
    assert.is(ddl.status, 1);
    assert.is(ddl.stderr, 'Error: in prepare, expressions prohibited in PRIMARY KEY and UNIQUE constraints\n');
    assert.is(
      cli([
        ':memory:',
        `${SEED_CORRECTIONS.bindingsDdl.corrected} INSERT OR REPLACE INTO bindings (name, value) VALUES ('x', 1), ('x', 2); SELECT count(*) FROM bindings;`,
      ]).stdout,
      '1\n',
      'the corrected DDL runs and keys on (name, scope)',
    );

    // 2. The scope CTE reads bindings.execution_id as execution.id; our execution_id is the frame counter.
    const literal = SEED_CORRECTIONS.scopeCte.seed.replace('WHERE id = 43', `WHERE id = ${inner}`);
    const seedAnswer = cli([scratch, `${literal.replace('SELECT b.*', 'SELECT b.value')}`]).stdout.trim();
    const apiAnswer = (await b.call('resolve', { run, name: 'result', executionId: inner }, VM)).value;
    assert.is(apiAnswer, 'outer result');
    assert.is.not(seedAnswer, apiAnswer, 'the literal CTE walks row ids, not frames');

    // 3. The loop UPDATE names a column the schema does not have.
    const loop = cli([scratch, SEED_CORRECTIONS.loopUpdate.seed]);
    assert.is(loop.status, 1);
    assert.is(loop.stderr, 'Error: in prepare, no such column: updated_at\n');

    // 4. "All branches complete?" counts history rows, so it never reaches 0 on an append-only log.
    const pendingApi = Object.values((await resume()).parallels.p1!.branches).filter((s) => s !== 'completed').length;
    assert.is.not(Number(cli([scratch, SEED_CORRECTIONS.pendingBranches.seed]).stdout), pendingApi);
    assert.is(Number(cli([scratch, SEED_CORRECTIONS.pendingBranches.corrected]).stdout), pendingApi);

    // 5. "Find current position" finds a statement that has since completed.
    const pos = (await resume()).position!;
    assert.is(cli([scratch, SEED_CORRECTIONS.currentPosition.seed]).stdout, `${pos.index}|${pos.text}|executing\n`);
    assert.is(pos.status, 'completed');
    assert.is(
      cli([scratch, SEED_CORRECTIONS.currentPosition.corrected]).stdout,
      `${pos.index}|${pos.text}|${pos.status}\n`,
    );

    // 6. "Check parallel block status" looks for a parallel row still 'executing': none ever is.
    assert.is(cli([scratch, SEED_CORRECTIONS.parallelStatus.seed]).stdout, '');
    const branches = (await resume()).parallels.p1!.branches;
    const want =
      Object.entries(branches)
        .filter(([, s]) => s !== 'pending')
        .map(([k, s]) => `${k}|${s}`)
        .join('\n') + '\n';
    assert.is(cli([scratch, SEED_CORRECTIONS.parallelStatus.corrected]).stdout, want);

    // 3 and 7, corrected: the loop iteration and the retry are appended, and the backend reads them back.
    assert.is(cli([db, SEED_CORRECTIONS.loopUpdate.corrected]).status, 0);
    assert.is(cli([db, SEED_CORRECTIONS.errorUpdate.corrected]).status, 0);
    const after = await resume();
    assert.is(after.loops.l1!.iteration, 2);
    assert.equal(after.retries['15'], { attempt: 2, max: 3 });
    assert.equal(after.errors.at(-1), { index: 15, message: 'Connection timeout after 30s' });
    // 7, literal: the UPDATEs run, but rewrite a row of the log in place.
    const id = cli([scratch, "SELECT id FROM execution WHERE status = 'retry'"]).stdout.trim();
    const literalErr = cli([
      scratch,
      SEED_CORRECTIONS.errorUpdate.seed.replaceAll('WHERE id = 15', `WHERE id = ${id}`),
    ]);
    assert.is(literalErr.status, 0);
    assert.is(
      cli([scratch, `SELECT status, json_extract(metadata, '$.retry_attempt') FROM execution WHERE id = ${id}`]).stdout,
      'failed|2\n',
      'the retry row was overwritten',
    );
    await b.close();
  } finally {
    env.done();
  }
});

test.run();
