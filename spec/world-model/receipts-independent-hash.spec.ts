import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fsRun } from './_fs.ts';
import { playHistory } from './_history.ts';

// An independent hasher (not src/canon): sorted keys by JS sort, JSON.stringify for scalars, no whitespace.
function sorted(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(sorted).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sorted(o[k])}`)
    .join(',')}}`;
}
const hashOf = (env: Record<string, unknown>) => {
  const { content_hash: _c, ...rest } = env;
  return `sha256:${createHash('sha256').update(sorted(rest)).digest('hex')}`;
};

test('the independent hasher reproduces the table 3.2 minimal receipt', () => {
  const minimal = {
    schema: 'openprose.receipt',
    hash_algorithm: 'sha256',
    node: 'n',
    contract_fingerprint: 'c',
    wake: { source: 'external', refs: [] },
    input_fingerprints: [],
    fingerprints: { '@atomic': 'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6' },
    semantic_diff: {},
    prev: null,
    status: 'rendered',
    cost: { provider: 'none', model: 'none', tokens: { fresh: 0, reused: 0 }, surprise_cause: 'external' },
    sig: { scheme: 'none', null_reason: 'no-signer-adapter-configured' },
  };
  assert.is(hashOf(minimal), 'sha256:75a3de595cae31bc970825584741adf49164d519ce6578f4ef4c1fcecbb8f60a');
});

test('every stored receipt line is its sorted envelope and re-hashes to its content_hash; prev chains per node', async () => {
  const r = await fsRun();
  try {
    await playHistory(r.backend, r.run);
    for (const node of ['a', 'b']) {
      const text = readFileSync(join(r.runDir, 'receipts', `${node}.jsonl`), 'utf8');
      assert.ok(text.endsWith('\n'));
      let prev: string | null = null;
      for (const line of text.slice(0, -1).split('\n')) {
        const env = JSON.parse(line) as Record<string, unknown>;
        assert.is(line, sorted(env), 'the line is canonical');
        assert.is(env.content_hash, hashOf(env));
        assert.is(env.prev, prev);
        assert.is(env.node, node);
        assert.equal(Object.keys(env).sort(), [
          'content_hash',
          'contract_fingerprint',
          'cost',
          'fingerprints',
          'hash_algorithm',
          'input_fingerprints',
          'node',
          'prev',
          'schema',
          'semantic_diff',
          'sig',
          'status',
          'wake',
        ]);
        prev = env.content_hash as string;
      }
    }
    const listed = await r.call<{ receipts: Record<string, unknown>[] }>('listReceipts', {});
    assert.equal(
      listed.receipts.map((x) => x.node),
      ['a', 'a', 'a', 'a', 'b', 'b'],
    );
    assert.equal(
      listed.receipts.map((x) => x.status),
      ['skipped', 'rendered', 'skipped', 'rendered', 'rendered', 'failed'],
    );
  } finally {
    await r.cleanup();
  }
});

test.run();
