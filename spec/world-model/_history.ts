import type { Backend } from '../../src/core/backend.ts';
import { VM } from '../../src/core/actor.ts';

/** One history, the same on every backend: commits, a skip, a failure, two nodes, the workspace and the envelope. */
export async function playHistory(b: Backend, run: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const call = async (op: Parameters<Backend['call']>[0], args: Record<string, unknown>) => {
    const r = await b.call(op, { run, ...args } as never, VM);
    out.push({ op, r });
    return r;
  };
  await call('writeEnvelope', {
    compiledIntent: { kind: 'function', nodes: ['a', 'b'], n: 1.5 },
    rootSource: '# root\r\n',
    sources: { 'lib/x.prose.md': 'x\n' },
  });
  await call('commitWorldModel', { node: 'a', contract: 'contract:a@1', files: {} });
  await call('commitWorldModel', {
    node: 'a',
    contract: 'contract:a@1',
    files: { 'truth.json': '{}', 'dir\\n.md': 'café\n' },
  });
  await call('commitWorldModel', {
    node: 'b',
    contract: 'c',
    files: { 'truth.json': '{}' },
    wake: { source: 'input', refs: ['sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85'] },
    inputFingerprints: ['inbox:1'],
    tokens: { fresh: 3, reused: 4 },
    provider: 'p',
    model: 'm',
  });
  await call('writeWorkspace', { node: 'a', files: { 'scratch.md': 'fetched_at: now' } });
  await call('commitWorldModel', {
    node: 'a',
    contract: 'contract:a@1',
    files: { 'dir/n.md': 'café\n', 'truth.json': '{}' },
  });
  await call('failRender', { node: 'b', contract: 'c', reason: 'timeout' });
  await call('commitWorldModel', {
    node: 'a',
    contract: 'contract:a@1',
    files: { 'truth.json': '{"v":2}', 'big.md': 'x'.repeat(20_000) },
  });
  return out;
}

/** Everything a reader can see afterwards. */
export async function readBack(b: Backend, run: string, versions: string[]): Promise<unknown> {
  const r = (op: Parameters<Backend['call']>[0], args: Record<string, unknown>) =>
    b.call(op, { run, ...args } as never, VM);
  return {
    receipts: await r('listReceipts', {}),
    a: await r('readPublished', { node: 'a' }),
    b: await r('readPublished', { node: 'b' }),
    cold: await r('readPublished', { node: 'c' }),
    pinned: await Promise.all(versions.map((version) => r('readVersion', { node: 'a', version }))),
    envelope: await r('readEnvelope', {}),
  };
}
