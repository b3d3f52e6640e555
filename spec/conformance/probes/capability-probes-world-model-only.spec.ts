import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BackendFactory } from '../../../src/core/backend.ts';
import type { Capability } from '../../../src/core/capabilities.ts';
import { probeCapabilities } from '../../../src/conformance/probes/capability-probes.ts';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { moduleFactory } from '../../../src/plugin/module-factory.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';

const PLUGIN = 'conformance/plugins/world-model-only/index.js';

async function probe(factory: BackendFactory, label: string) {
  const env = tempEnv(label);
  try {
    return await probeCapabilities(factory, env);
  } finally {
    env.cleanup();
  }
}

const verdictOf = (vs: Awaited<ReturnType<typeof probe>>, c: Capability) => vs.find((v) => v.capability === c)!;

test('a backend keeping only world-models and receipts gets a true verdict for every capability', async () => {
  const verdicts = await probe(await moduleFactory(PLUGIN), 'probe-wm-only');
  assert.equal(
    verdicts.filter((v) => v.verdict !== 'ok'),
    [],
  );
  const worked = verdicts
    .filter((v) => v.works)
    .map((v) => v.capability)
    .sort();
  assert.equal(worked, ['durable', 'multi-process', 'receipts', 'world-model', 'world-model-only']);
  // Nothing to attach without bindings: the attachments probe sees bind refused, the undeclared answer.
  assert.equal(verdictOf(verdicts, 'attachments'), {
    capability: 'attachments',
    declared: false,
    works: false,
    verdict: 'ok',
  });
});

test('the same backend not saying it keeps no bindings is told so, by the bind forms and the world-model-only probe', async () => {
  const plugin = await moduleFactory(PLUGIN);
  const silent = { ...plugin, capabilities: plugin.capabilities.filter((c) => c !== 'world-model-only') };
  const verdicts = await probe(silent, 'probe-wm-only-silent');
  assert.is(verdictOf(verdicts, 'world-model-only').verdict, 'undeclared-but-works');
  assert.is(verdictOf(verdicts, 'durable').verdict, 'claimed-but-broken');
  assert.match(verdictOf(verdicts, 'durable').detail!, /E_UNSUPPORTED: bind/);
});

test('a backend that binds yet declares world-model-only is claimed-but-broken there', async () => {
  const caps: readonly Capability[] = [...filesystemFactory.capabilities, 'world-model-only'];
  const verdicts = await probe({ ...filesystemFactory, capabilities: caps }, 'probe-wm-only-binds');
  assert.equal(verdictOf(verdicts, 'world-model-only'), {
    capability: 'world-model-only',
    declared: true,
    works: false,
    verdict: 'claimed-but-broken',
    detail: 'declared, but bind stored a binding',
  });
  // Its durable, multi-process and concurrent-writers claims hold through commits as they do through bindings; two
  // writers racing on one node are outside the contract (decision wm-single-writer), so each commits its own.
  assert.is(verdictOf(verdicts, 'durable').verdict, 'ok');
  assert.is(verdictOf(verdicts, 'multi-process').verdict, 'ok');
  assert.is(verdictOf(verdicts, 'concurrent-writers').verdict, 'ok');
});

test('the built-in filesystem backend, which keeps bindings, is ok on world-model-only (undeclared, bind works)', async () => {
  const verdicts = await probe(filesystemFactory, 'probe-wm-only-fs');
  assert.equal(verdictOf(verdicts, 'world-model-only'), {
    capability: 'world-model-only',
    declared: false,
    works: false,
    verdict: 'ok',
  });
});

test.run();
