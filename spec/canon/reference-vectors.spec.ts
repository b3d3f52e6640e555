import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactAddress, commit } from '../../src/canon/index.ts';

// Facts notes table 3.2, computed by an independent implementation.
test('truth.json holding {} addresses to sha256:d8e15992...', () => {
  assert.is(
    artifactAddress({ 'truth.json': '{}' }),
    'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85',
  );
});

test('two files give sha256:eff3831f... in either insertion order', () => {
  const want = 'sha256:eff3831f1fdbd6819ed33f6cec128abd226d59ce2e9a05253a21456063c1cf7d';
  assert.is(artifactAddress({ 'a.json': '1', 'b.json': '2' }), want);
  assert.is(artifactAddress({ 'b.json': '2', 'a.json': '1' }), want);
  assert.is(
    artifactAddress(
      new Map([
        ['b.json', '2'],
        ['a.json', '1'],
      ]),
    ),
    want,
  );
});

test('framing keeps {ab:c} and {a:bc} apart', () => {
  assert.is(artifactAddress({ ab: 'c' }), 'sha256:90869d5450b0008e26475e957bef06378ac6a27105d421141cfcb5834860a94c');
  assert.is(artifactAddress({ a: 'bc' }), 'sha256:a02d792881d8d67d741797cf6042ec416893e5d8396e7973c5e1c5b5a401c0d3');
});

test('commit returns the bytes it addressed, and bytes equal string contents', () => {
  const c = commit({ 'truth.json': new TextEncoder().encode('{}') });
  assert.is(c.address, 'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85');
  assert.is(c.files, 1);
  assert.is(c.bytes.length, 9 + 4 + 10 + 4 + 2);
});

test.run();
