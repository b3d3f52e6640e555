import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { editionRunDir } from '../../../src/core/seed-layout.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// A ledger finding of a state.db nested in a verified tree names the file from that tree (as every other state-db
// rule does), not a bare `state.db` that could be any run's.
test('a forked prev in a v0 SQLite run of a .prose/ names .prose/runs/{id}/state.db', async () => {
  const env = tempEnv(resolveDecisions({}));
  try {
    const b = await sqliteFactory.open({ ...env, edition: 'v0' });
    let run = '';
    try {
      ({ run } = await b.call(
        'createRun',
        { program: 'let a = session "A"\n', programPath: 'a.prose' },
        { role: 'vm' },
      ));
      for (const text of ['first\n', 'second\n'])
        await b.call(
          'commitWorldModel',
          { run, node: 'n', contract: 'c', files: { 'truth.md': text } },
          { role: 'vm' },
        );
    } finally {
      await b.close();
    }
    const fork = 'UPDATE receipt SET prev = NULL WHERE id = 2';
    execFileSync('sqlite3', ['state.db', fork], { cwd: editionRunDir(env.projectDir, run, 'v0') });
    const { kind, findings } = await verifyPath(env.projectDir);
    const wm = findings.filter((f) => f.rule.startsWith('wm.'));
    assert.equal(kind, 'prose-dir');
    assert.ok(wm.length > 0, 'the fork is found');
    assert.equal([...new Set(wm.map((f) => f.file))], [`.prose/runs/${run}/state.db`]);
  } finally {
    env.cleanup();
  }
});

test.run();
