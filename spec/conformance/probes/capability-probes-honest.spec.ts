import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { probeCapabilities } from '../../../src/conformance/probes/capability-probes.ts';
import { fakeFactory } from '../../plugin/fixtures/fake-factory.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';

test('an honest backend gets ok for every capability, declared or not', async () => {
  const env = tempEnv('probe-honest');
  try {
    const caps = ['project-scope', 'imports', 'durable', 'attachments'] as const;
    const verdicts = await probeCapabilities(
      fakeFactory({ declared: [...caps], supports: [...caps], durable: true }),
      env,
    );
    const bad = verdicts.filter((v) => v.verdict !== 'ok');
    assert.equal(bad, []);
    const byCap = Object.fromEntries(verdicts.map((v) => [v.capability, v]));
    assert.equal(byCap['project-scope'], { capability: 'project-scope', declared: true, works: true, verdict: 'ok' });
    assert.equal(byCap['user-scope'], { capability: 'user-scope', declared: false, works: false, verdict: 'ok' });
    assert.is(byCap['durable']!.works, true);
  } finally {
    env.cleanup();
  }
});

test.run();
