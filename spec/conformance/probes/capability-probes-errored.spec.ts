import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProseError } from '../../../src/core/errors.ts';
import { probeCapabilities, type CapabilityVerdict } from '../../../src/conformance/probes/capability-probes.ts';
import { fakeFactory } from '../../plugin/fixtures/fake-factory.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';
import type { Backend } from '../../../src/core/backend.ts';

// A backend that breaks during a probe says nothing about its claims: errored, never a contradiction.
async function verdictsWhenBindDoes(
  fault: () => Promise<never>,
  timeoutMs = 5_000,
): Promise<Record<string, CapabilityVerdict>> {
  const env = tempEnv('probe-errored');
  try {
    const tamper = (b: Backend): Backend => ({
      ...b,
      call: (op, args, actor) => (op === 'bind' ? fault() : b.call(op, args, actor)),
    });
    const factory = fakeFactory({ declared: ['durable'], supports: [], durable: true, tamper });
    return Object.fromEntries((await probeCapabilities(factory, env, { timeoutMs })).map((v) => [v.capability, v]));
  } finally {
    env.cleanup();
  }
}

test('a probe that never answers is errored after the timeout, and the other probes still run', async () => {
  const v = await verdictsWhenBindDoes(() => new Promise<never>(() => undefined), 50);
  assert.equal(v.durable, {
    capability: 'durable',
    declared: true,
    works: null,
    verdict: 'errored',
    detail: 'the probe timed out after 50 ms',
  });
  assert.is(v.attachments!.verdict, 'errored');
  assert.is(v.imports!.verdict, 'ok');
});

test('E_PLUGIN (a crashed or garbling plugin) is errored, not claimed-but-broken', async () => {
  const v = await verdictsWhenBindDoes(() =>
    Promise.reject(new ProseError('E_PLUGIN', 'the plugin exited with code 3')),
  );
  assert.is(v.durable!.verdict, 'errored');
  assert.match(v.durable!.detail ?? '', /^E_PLUGIN: the plugin exited/);
});

test('a plain exception from inside the backend is errored, naming it', async () => {
  const v = await verdictsWhenBindDoes(() =>
    Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')")),
  );
  assert.is(v.durable!.verdict, 'errored');
  assert.match(v.durable!.detail ?? '', /TypeError: Cannot read properties/);
  assert.is(v.attachments!.verdict, 'errored', 'undeclared, yet not half-works: the backend broke');
});

test.run();
