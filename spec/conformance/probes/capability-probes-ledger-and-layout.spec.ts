import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import type { BackendFactory } from '../../../src/core/backend.ts';
import { probeCapabilities, type CapabilityVerdict } from '../../../src/conformance/probes/capability-probes.ts';
import { fakeFactory } from '../../helpers/fake-backends.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';

async function verdictsOf(factory: BackendFactory): Promise<Record<string, CapabilityVerdict>> {
  const env = tempEnv('probe-ledger');
  try {
    return Object.fromEntries((await probeCapabilities(factory, env)).map((v) => [v.capability, v]));
  } finally {
    env.cleanup();
  }
}

test('receipts: a ledger that does not chain its receipts by prev is claimed-but-broken', async () => {
  const unchained = fakeFactory('unchained', async (op, args, actor, real) => {
    const r = await real.call(op, args as never, actor);
    return op === 'listReceipts'
      ? { receipts: (r as { receipts: object[] }).receipts.map((x) => ({ ...x, prev: null })) }
      : r;
  });
  const v = await verdictsOf(unchained);
  assert.is(v.receipts!.verdict, 'claimed-but-broken');
  assert.match(v.receipts!.detail ?? '', /not chained/);
  assert.is(v['world-model']!.verdict, 'ok');
});

test("receipts: a ledger missing a commit's receipt is claimed-but-broken", async () => {
  const forgetful = fakeFactory('forgetful', async (op, args, actor, real) => {
    const r = await real.call(op, args as never, actor);
    return op === 'listReceipts' ? { receipts: (r as { receipts: object[] }).receipts.slice(0, 1) } : r;
  });
  assert.match((await verdictsOf(forgetful)).receipts!.detail ?? '', /after two commits listReceipts holds/);
});

test('layouts: a declared layout of another kind is claimed-but-broken; an undeclared one in use is undeclared-but-works', async () => {
  const v = await verdictsOf({
    ...filesystemFactory,
    capabilities: [...filesystemFactory.capabilities.filter((c) => c !== 'layout:directory'), 'layout:sqlite'],
  });
  assert.equal(v['layout:sqlite'], {
    capability: 'layout:sqlite',
    declared: true,
    works: false,
    verdict: 'claimed-but-broken',
    detail: 'declared, but storage() is not a sqlite view',
  });
  assert.is(v['layout:directory']!.verdict, 'undeclared-but-works');
});

test('the filesystem backend, as it is, keeps every claim', async () => {
  const v = await verdictsOf(filesystemFactory);
  assert.equal(
    Object.values(v).filter((x) => !['ok', 'unprobed'].includes(x.verdict)),
    [],
  );
  assert.is(v.receipts!.works, true);
});

test.run();
