import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { renderVerifyRules } from '../../../src/verify/render-verify-rules.ts';

test('docs/verify-rules.md is the rendering of the rule tables (regenerate it as render-verify-rules.ts says)', () => {
  const doc = readFileSync(new URL('../../../docs/verify-rules.md', import.meta.url), 'utf8');
  assert.ok(doc === renderVerifyRules(), 'docs/verify-rules.md is stale');
});

test.run();
