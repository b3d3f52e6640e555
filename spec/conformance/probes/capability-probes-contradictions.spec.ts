import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProseError } from '../../../src/core/errors.ts';
import { probeCapabilities, type CapabilityVerdict } from '../../../src/conformance/probes/capability-probes.ts';
import { fakeFactory, type FakeOptions } from '../../plugin/fixtures/fake-factory.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';

async function verdictsOf(opts: FakeOptions): Promise<Record<string, CapabilityVerdict>> {
  const env = tempEnv('probe');
  try {
    return Object.fromEntries((await probeCapabilities(fakeFactory(opts), env)).map((v) => [v.capability, v]));
  } finally {
    env.cleanup();
  }
}

test('declared but answering E_UNSUPPORTED: claimed-but-broken', async () => {
  const v = await verdictsOf({ declared: ['user-scope'], supports: [] });
  assert.is(v['user-scope']!.verdict, 'claimed-but-broken');
  assert.is(v['user-scope']!.works, false);
});

test('declared durable but forgetting on restart: claimed-but-broken', async () => {
  const v = await verdictsOf({ declared: ['durable'], supports: [], durable: false });
  assert.is(v.durable!.verdict, 'claimed-but-broken');
});

test('undeclared but working: undeclared-but-works', async () => {
  const v = await verdictsOf({ declared: [], supports: ['project-scope', 'imports'], durable: true });
  assert.is(v['project-scope']!.verdict, 'undeclared-but-works');
  assert.is(v.imports!.verdict, 'undeclared-but-works');
  assert.is(v.durable!.verdict, 'undeclared-but-works');
});

test('undeclared, not refused, yet not working either: undeclared-half-works', async () => {
  const v = await verdictsOf({
    declared: [],
    supports: ['custom-scope'],
    tamper: (b) => ({
      ...b,
      call: (op, args, actor) =>
        op === 'readMemory' ? Promise.reject(new ProseError('E_NOT_FOUND', 'lost it')) : b.call(op, args, actor),
    }),
  });
  assert.is(v['custom-scope']!.verdict, 'undeclared-half-works');
  assert.match(v['custom-scope']!.detail ?? '', 'E_NOT_FOUND');
});

test('capabilities with nothing to refuse are not probed when undeclared', async () => {
  const v = await verdictsOf({ declared: [], supports: [] });
  assert.equal(v['concurrent-writers'], {
    capability: 'concurrent-writers',
    declared: false,
    works: null,
    verdict: 'ok',
    detail: 'nothing to refuse when undeclared',
  });
});

test.run();
