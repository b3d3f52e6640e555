import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fsRun } from './_fs.ts';

// Facts table 3.2 (an independent implementation), through commitWorldModel and readPublished on one node each.
const VECTORS: [Record<string, string>, string][] = [
  [{ 'truth.json': '{}' }, 'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85'],
  [{ 'a.json': '1', 'b.json': '2' }, 'sha256:eff3831f1fdbd6819ed33f6cec128abd226d59ce2e9a05253a21456063c1cf7d'],
  [{ 'b.json': '2', 'a.json': '1' }, 'sha256:eff3831f1fdbd6819ed33f6cec128abd226d59ce2e9a05253a21456063c1cf7d'],
  [{ ab: 'c' }, 'sha256:90869d5450b0008e26475e957bef06378ac6a27105d421141cfcb5834860a94c'],
  [{ a: 'bc' }, 'sha256:a02d792881d8d67d741797cf6042ec416893e5d8396e7973c5e1c5b5a401c0d3'],
  [{ 'dir/truth.json': '{}' }, 'sha256:d9be01d6469392ff1d085699a398aa5d3a24f2b7adc5c5d836be998866c60c44'],
  [{ 'dir\\truth.json': '{}' }, 'sha256:d9be01d6469392ff1d085699a398aa5d3a24f2b7adc5c5d836be998866c60c44'],
  [{ '/dir/truth.json': '{}' }, 'sha256:d9be01d6469392ff1d085699a398aa5d3a24f2b7adc5c5d836be998866c60c44'],
  [{ 'caf\u00e9.md': 'x' }, 'sha256:558dbfa427510c3a25448a7069a47eb5099f50ac6c35a2711ebf66c76c93f34f'],
  [{ 'cafe\u0301.md': 'x' }, 'sha256:07523b02ac0f7dc4d932c28ddd6f91329e74819929401502be7eea5ee1a8799a'],
  [{ 't.md': 'a\n' }, 'sha256:d5cb362da28dfb542b584046f0ef448bd77cffa6b72b593f011269fc42941f7e'],
  [{ 't.md': 'a\r\n' }, 'sha256:a2aaf98fcbb03a7d9a4bd4a01bc7333960753abab77e94e808e598fc0508acd9'],
];
const EMPTY = 'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6';

test('every table 3.2 vector commits to its address and reads back normalized', async () => {
  const r = await fsRun();
  try {
    const cold = await r.call<{ fingerprints: Record<string, string> }>('readPublished', { node: 'cold' });
    assert.equal(cold.fingerprints, { '@atomic': EMPTY });
    for (const [i, [files, address]] of VECTORS.entries()) {
      const node = `n${i}`;
      const c = await r.call<{ status: string; version: string }>('commitWorldModel', { node, contract: 'c', files });
      assert.is(c.status, 'rendered', node);
      assert.is(c.version, address, node);
      const p = await r.call<{ version: string; files: Record<string, string> }>('readPublished', { node });
      assert.is(p.version, address);
      assert.equal(Object.values(p.files).sort(), Object.values(files).sort());
      for (const k of Object.keys(p.files)) assert.ok(!k.startsWith('/') && !k.includes('\\'), `normalized path ${k}`);
    }
  } finally {
    await r.cleanup();
  }
});

test.run();
