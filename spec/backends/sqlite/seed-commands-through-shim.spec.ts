import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqlite3Command } from '../../../src/cli/commands/sqlite3.ts';
import type { CliIo } from '../../../src/cli/io.ts';
import { VM } from '../../../src/core/actor.ts';
import { cli, tempEnv } from './helpers.ts';
import { writeSeedRun } from './seed-run.ts';

async function shim(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd,
  };
  return { status: await sqlite3Command.run(argv, io), stdout, stderr };
}

test("the seed's literal sqlite3 commands work through `prose-state sqlite3`, and the backend reads what they wrote", async () => {
  const env = tempEnv('seed-shim');
  try {
    const { backend: b, run, db } = await writeSeedRun(env);
    const rel = relative(env.projectDir, db);
    const commands = [
      // From the VM: "Update execution position".
      `\n  INSERT INTO execution (statement_index, statement_text, status, started_at)\n  VALUES (3, 'session \\"Research AI safety\\"', 'executing', datetime('now'))\n`,
      // From subagents, root scope.
      `\n  INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at)\n  VALUES (\n    'research',\n    NULL,  -- root scope\n    'let',\n    'AI safety research covers alignment, robustness...',\n    'let research = session: researcher',\n    datetime('now')\n  )\n`,
      // Persistent agent: update memory, record a segment.
      "UPDATE agents SET memory = '...', updated_at = datetime('now') WHERE name = 'captain'",
      "INSERT INTO agent_segments (agent_name, segment_number, prompt, summary) VALUES ('captain', 3, '...', '...')",
      // Large outputs.
      "INSERT INTO bindings (name, kind, value, attachment_path, source_statement)\nVALUES (\n  'full_report',\n  'let',\n  'Full analysis report (847KB) - see attachment',\n  'attachments/full_report.md',\n  'let full_report = session \"Generate comprehensive report\"'\n);",
    ];
    for (const sql of commands) {
      // The seed's shell quoting (\") reaches sqlite3 as a plain quote.
      const r = await shim([rel, sql.replaceAll('\\"', '"')], env.projectDir);
      assert.equal(r, { status: 0, stdout: '', stderr: '' }, sql);
    }
    const report = 'R'.repeat(847 * 1024);
    mkdirSync(join(dirname(db), 'attachments'), { recursive: true });
    writeFileSync(join(dirname(db), 'attachments', 'full_report.md'), report);

    const resume = await b.call('resume', { run }, VM);
    assert.equal(resume.position, { index: 3, text: 'session "Research AI safety"', status: 'executing' });
    assert.is(
      (await b.call('resolve', { run, name: 'research' }, VM)).value,
      'AI safety research covers alignment, robustness...',
    );
    assert.is((await b.call('readMemory', { agent: 'captain', scope: 'execution', run }, VM)).memory, '...');
    assert.equal(
      (await b.call('listSegments', { agent: 'captain', scope: 'execution', run }, VM)).segments.map((s) => s.number),
      [3],
    );
    const full = await b.call('resolve', { run, name: 'full_report' }, VM);
    assert.is(full.attached, true);
    assert.is(full.value, report);

    // "Read a binding" with -json: the shim answers what the real CLI answers.
    const read = ['-json', rel, "\n  SELECT value FROM bindings WHERE name = 'research'\n"];
    const ours = await shim(read, env.projectDir);
    assert.is(ours.stdout, cli(read, { cwd: env.projectDir }).stdout);
    assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n');
    await b.close();
  } finally {
    env.done();
  }
});

test.run();
