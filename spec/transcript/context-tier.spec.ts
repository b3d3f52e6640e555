import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { codePointLength, contextTier } from '../../src/transcript/context-tier.ts';

// in-context.md "Context Serialization": < 2000 verbatim, 2000-8000 summarize, > 8000 extract (decisions context-tier-*).
const d = DEFAULT_DECISIONS;

test('1999 characters pass verbatim, 2000 are summarized', () => {
  assert.is(contextTier('a'.repeat(1999), d), 'verbatim');
  assert.is(contextTier('a'.repeat(2000), d), 'summarize');
});

test('8000 characters are still summarized, 8001 are reduced to essentials', () => {
  assert.is(contextTier('a'.repeat(8000), d), 'summarize');
  assert.is(contextTier('a'.repeat(8001), d), 'extract');
});

test('the empty value passes verbatim', () => {
  assert.is(contextTier('', d), 'verbatim');
});

test('characters are code points: 1999 emoji (3998 UTF-16 units) pass verbatim', () => {
  const v = '😀'.repeat(1999);
  assert.is(v.length, 3998);
  assert.is(contextTier(v, d), 'verbatim');
  assert.is(contextTier(v + '😀', d), 'summarize');
});

test('a combining sequence counts each code point; a lone surrogate counts as one', () => {
  assert.is(codePointLength('e\u0301'), 2);
  assert.is(codePointLength('\ud800x\udc00'), 3);
  assert.is(codePointLength('\ud83d\ude00'), 1);
});

test('the tiers follow the decisions passed in', () => {
  const small = { contextVerbatimBelow: 3, contextSummarizeUpTo: 5 };
  assert.equal(
    ['ab', 'abc', 'abcde', 'abcdef'].map((v) => contextTier(v, small)),
    ['verbatim', 'summarize', 'summarize', 'extract'],
  );
});

test('counting stops past the upper bound, so a huge value is cheap', () => {
  assert.is(codePointLength('x'.repeat(1_000_000), 8001), 8001);
  assert.is(contextTier('x'.repeat(5_000_000), d), 'extract');
});

test.run();
