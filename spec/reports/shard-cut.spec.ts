import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Case } from '../../src/conformance/case-types.ts';
import { shardCases } from '../../src/conformance/shard.ts';

const cases = Array.from({ length: 10 }, (_, i) => ({ id: `a/c${i}` }) as Case);
const ids = (cs: Case[]) => cs.map((c) => c.id);

test('without durations the cases are dealt out in turn, each once, in suite order', () => {
  const shares = [1, 2, 3].map((index) => ids(shardCases(cases, { index, count: 3 })));
  assert.equal(shares[0], ['a/c0', 'a/c3', 'a/c6', 'a/c9']);
  assert.equal(shares[1], ['a/c1', 'a/c4', 'a/c7']);
  assert.equal(shares.flat().sort(), ids(cases).sort());
});

test('with durations one long case gets a shard of its own, and the nine short ones the other', () => {
  const durations = new Map(cases.map((c, i) => [c.id, i === 4 ? 900 : 100]));
  const shares = [1, 2].map((index) => shardCases(cases, { index, count: 2 }, durations));
  const time = (cs: Case[]) => cs.reduce((t, c) => t + durations.get(c.id)!, 0);
  assert.equal(ids(shares[0]!), ['a/c4']);
  assert.equal([time(shares[0]!), time(shares[1]!)], [900, 900]);
  assert.equal([...ids(shares[0]!), ...ids(shares[1]!)].sort(), ids(cases).sort());
});

test('a case the durations report does not know weighs the mean of those it does', () => {
  const durations = new Map([
    ['a/c0', 300],
    ['a/c1', 100],
  ]);
  const shares = [1, 2].map((index) => ids(shardCases(cases.slice(0, 3), { index, count: 2 }, durations)));
  // c0 (300) alone; c2 (unknown: 200) and c1 (100) together.
  assert.equal(shares, [['a/c0'], ['a/c1', 'a/c2']]);
});

test('more shards than cases leaves some shards empty, never a case twice', () => {
  const shares = [1, 2, 3, 4].map((index) => ids(shardCases(cases.slice(0, 2), { index, count: 4 })));
  assert.equal(shares, [['a/c0'], ['a/c1'], [], []]);
});

test.run();
