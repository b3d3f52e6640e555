import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFactory } from '../../../src/plugin/exec-factory.ts';
import { probeCapabilities } from '../../../src/conformance/probes/capability-probes.ts';
import { referenceCommand } from '../../plugin/fixtures/plugin-commands.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';

test('the stdio reference plugin keeps its capability claims both ways', async () => {
  const env = tempEnv('probe-reference');
  try {
    const verdicts = await probeCapabilities(await execFactory(referenceCommand), env);
    assert.equal(
      verdicts.filter((v) => v.verdict !== 'ok'),
      [],
    );
    const worked = verdicts
      .filter((v) => v.works)
      .map((v) => v.capability)
      .sort();
    assert.equal(worked, [
      'attachments',
      'concurrent-writers',
      'custom-scope',
      'durable',
      'imports',
      'layout:directory',
      'multi-process',
      'project-scope',
      'receipts',
      'user-scope',
      'world-model',
    ]);
    // Undeclared layouts are probed too: its storage view is a directory, not SQLite.
    assert.equal(
      verdicts.find((v) => v.capability === 'layout:sqlite'),
      { capability: 'layout:sqlite', declared: false, works: false, verdict: 'ok' },
    );
  } finally {
    env.cleanup();
  }
});

test.run();
