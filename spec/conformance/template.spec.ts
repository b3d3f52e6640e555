import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpolate } from '../../src/conformance/template.ts';
import { ProseError } from '../../src/core/errors.ts';

test('$slice takes part of a string, after templates are filled (the date digits of a run id)', () => {
  const vars = { r: { runId: '20260115-143052-a7b3c9' } };
  assert.is(interpolate({ $slice: ['${r.runId}', 0, 8] }, vars), '20260115');
  assert.is(interpolate({ $slice: ['${r.runId}', 16] }, vars), 'a7b3c9');
  assert.is(
    interpolate({ $concat: [{ $slice: ['${r.runId}', 9, 11] }, ':', { $slice: ['${r.runId}', 11, 13] }] }, vars),
    '14:30',
  );
});

test('$slice with a non-string or a non-integer bound is a case error', () => {
  assert.throws(
    () => interpolate({ $slice: [3, 0, 1] }, {}),
    (e: unknown) => e instanceof ProseError && e.code === 'E_CASE',
  );
  assert.throws(
    () => interpolate({ $slice: ['abc', 0.5] }, {}),
    (e: unknown) => e instanceof ProseError && e.code === 'E_CASE',
  );
});

test.run();
