import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { tempEnv } from '../../helpers/temp-env.ts';
import { driveScenario } from '../run-dir/drive-scenario.ts';

test('what our sqlite backend writes through a full scenario verifies with no finding', async () => {
  const env = tempEnv(resolveDecisions({ attachmentThresholdBytes: 256 }));
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await driveScenario(b, 256);
    await b.close();
    const runDir = join(env.projectDir, '.prose/runs', run);
    assert.ok(existsSync(join(runDir, 'state.db')));
    assert.ok(existsSync(join(env.projectDir, '.prose/agents.db')), 'project agents went to agents.db');
    const all = await verifyPath(env.projectDir, { homeDir: env.homeDir, attachmentThresholdBytes: 256 });
    assert.is(all.kind, 'prose-dir');
    assert.equal(all.findings, []);
    const db = await verifyPath(join(runDir, 'state.db'), { attachmentThresholdBytes: 256 });
    assert.is(db.kind, 'state-db');
    assert.equal(db.findings, []);
  } finally {
    env.cleanup();
  }
});

test.run();
