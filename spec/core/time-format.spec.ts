import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isIsoDateTime } from '../../src/core/time-format.ts';

// One checker serves the engine, the stores and verify (there were two, which disagreed on years 0000-0099).
test('accepts the seed form, fractions, offsets, leap days and years below 100', () => {
  for (const s of [
    '2026-01-15T14:30:52Z',
    '2026-01-15T14:30:52.123+02:00',
    '2024-02-29T00:00:00Z',
    '0050-03-01T00:00:00Z',
  ]) {
    assert.ok(isIsoDateTime(s), s);
  }
});

test('refuses impossible dates and times, and the sqlite datetime() form', () => {
  for (const s of [
    '2023-02-29T00:00:00Z',
    '0050-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-15T25:00:00Z',
    '2026-01-15T14:30:60Z',
    '2026-01-15 14:30:52',
    '2026-01-15T14:30Z',
  ]) {
    assert.not.ok(isIsoDateTime(s), s);
  }
});

test.run();
