import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import { cli, tempEnv } from './helpers.ts';
import { writeSeedRun } from './seed-run.ts';

/**
 * sqlite.md's own json_extract lookups on execution.metadata ("Loop Tracking", "Error Handling", "Parallel
 * Execution"), run by /usr/bin/sqlite3 on a state.db the backend wrote: the keys are the seed's.
 */
test("the seed's metadata keys (loop_id, max_iterations, current_iteration, retry_attempt, max_retries) answer the seed's queries", async () => {
  const env = tempEnv('seed-keys');
  try {
    const { backend: b, run, db } = await writeSeedRun(env);
    const q = (sql: string) => JSON.parse(cli(['-json', db, sql]).stdout || '[]') as Record<string, unknown>[];

    // Loop Tracking: the loop's row carries the seed's keys; the latest current_iteration is the API's iteration.
    const loop = q(
      "SELECT json_extract(metadata, '$.max_iterations') AS max, json_extract(metadata, '$.current_iteration') AS cur, json_extract(metadata, '$.condition') AS cond FROM execution WHERE json_extract(metadata, '$.loop_id') = 'l1' ORDER BY id",
    );
    assert.equal(loop[0], { max: 5, cur: 0, cond: '**analysis complete**' });
    const resume = await b.call('resume', { run }, VM);
    assert.is(loop[loop.length - 1]!.cur, resume.loops.l1!.iteration);

    // Error Handling: "Track retry attempts in metadata" with retry_attempt and max_retries.
    const retry = q(
      "SELECT statement_index, json_extract(metadata, '$.retry_attempt') AS attempt, json_extract(metadata, '$.max_retries') AS max FROM execution WHERE json_extract(metadata, '$.retry_attempt') IS NOT NULL",
    );
    assert.equal(retry, [{ statement_index: 15, attempt: 1, max: 3 }]);
    assert.equal(resume.retries['15'], { attempt: 1, max: 3 });

    // Parallel Execution: the seed's "mark branch complete" WHERE clause finds the branch's rows.
    const branch = q(
      "SELECT status FROM execution WHERE json_extract(metadata, '$.parallel_id') = 'p1' AND json_extract(metadata, '$.branch') = 'a' ORDER BY id",
    );
    assert.equal(
      branch.map((r) => r.status),
      ['executing', 'completed'],
    );

    // No row carries the keys used before the seed's.
    assert.equal(
      q(
        "SELECT COUNT(*) AS n FROM execution WHERE json_extract(metadata, '$.max') IS NOT NULL OR json_extract(metadata, '$.iteration') IS NOT NULL OR json_extract(metadata, '$.attempt') IS NOT NULL",
      ),
      [{ n: 0 }],
    );
    await b.close();
  } finally {
    env.done();
  }
});

test.run();
