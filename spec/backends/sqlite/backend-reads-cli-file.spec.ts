import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { RUN_DDL, AGENTS_DDL } from '../../../src/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { cli, tempEnv } from './helpers.ts';

const RUN = '20260116-143052-a7b3c9';

test("a state.db the sqlite3 CLI made with the seed's commands opens in the backend, and the CLI still reads our writes", async () => {
  const env = tempEnv('cli-made');
  try {
    const dir = join(env.projectDir, '.prose', 'runs', RUN);
    mkdirSync(dir, { recursive: true });
    const db = join(dir, 'state.db');
    // The seed's own commands, as a VM and its subagents would run them (with the corrected bindings DDL).
    const steps = [
      RUN_DDL + AGENTS_DDL,
      `INSERT INTO run (id, program_path, program_source) VALUES ('${RUN}', 'program.prose', 'let research = session: researcher')`,
      `INSERT INTO execution (statement_index, statement_text, status, started_at) VALUES (3, 'session "Research AI safety"', 'executing', datetime('now'))`,
      `INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at)
       VALUES ('research', NULL, 'let', 'AI safety research covers alignment, robustness...', 'let research = session: researcher', datetime('now'))`,
      `INSERT INTO agents (name, scope, memory) VALUES ('captain', 'execution', 'first memory')`,
      `INSERT INTO agent_segments (agent_name, segment_number, prompt, summary) VALUES ('captain', 1, 'p', 's')`,
    ];
    for (const sql of steps) assert.is(cli([db, sql]).status, 0, sql);
    assert.is(cli([db, 'PRAGMA user_version']).stdout, '0\n', 'the CLI file is unmarked');

    const b = await sqliteFactory.open(env);
    const got = await b.call('getRun', { run: RUN }, VM);
    assert.is(got.program, 'let research = session: researcher');
    assert.is(
      (await b.call('resolve', { run: RUN, name: 'research' }, VM)).value,
      'AI safety research covers alignment, robustness...',
    );
    assert.equal((await b.call('resume', { run: RUN }, VM)).position, {
      index: 3,
      text: 'session "Research AI safety"',
      status: 'executing',
    });
    assert.is(
      (await b.call('readMemory', { agent: 'captain', scope: 'execution', run: RUN }, VM)).memory,
      'first memory',
    );
    const seg = await b.call(
      'appendSegment',
      { agent: 'captain', scope: 'execution', run: RUN, prompt: 'q', summary: 't' },
      { role: 'subagent', agent: 'captain' },
    );
    assert.is(seg.number, 2, 'numbering continues from the CLI-written segment');
    await b.call('bind', { run: RUN, name: 'more', kind: 'input', value: 'added by the backend' }, VM);
    await b.close();

    assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n');
    assert.is(cli([db, 'PRAGMA user_version']).stdout, '1\n', 'adopted: marked with our schema version');
    assert.is(cli([db, "SELECT value FROM bindings WHERE name = 'more'"]).stdout, 'added by the backend\n');
    assert.is(cli([db, 'SELECT count(*) FROM agent_segments']).stdout, '2\n');
  } finally {
    env.done();
  }
});

test.run();
