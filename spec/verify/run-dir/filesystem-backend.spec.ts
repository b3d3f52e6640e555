import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { tempEnv } from '../../helpers/temp-env.ts';
import { driveScenario } from './drive-scenario.ts';

test('what our filesystem backend writes through a full scenario verifies with no finding', async () => {
  const env = tempEnv(resolveDecisions({ attachmentThresholdBytes: 256 }));
  try {
    const b = await filesystemFactory.open(env);
    const { run } = await driveScenario(b, 256);
    await b.close();
    const runDir = join(env.projectDir, '.prose/runs', run);
    assert.ok(existsSync(join(runDir, 'attachments/big.md')), 'the scenario attached a value');
    assert.ok(existsSync(join(runDir, 'imports/alice--summarizer/state.md')), 'the scenario made an import');
    const all = await verifyPath(env.projectDir, { homeDir: env.homeDir, attachmentThresholdBytes: 256 });
    assert.is(all.kind, 'prose-dir');
    assert.equal(all.findings, []);
    const one = await verifyPath(runDir, { homeDir: env.homeDir, attachmentThresholdBytes: 256 });
    assert.is(one.kind, 'run-dir');
    assert.equal(one.findings, []);
  } finally {
    env.cleanup();
  }
});

test.run();
