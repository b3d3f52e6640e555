import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { boundText, FIELD_BOUND, JSON_FIELD_BOUND } from '../../src/conformance/reporters/bound-fields.ts';
import { createReporters, REPORTERS } from '../../src/conformance/reporters/create-reporters.ts';
import { feed, reportText } from './_hostile-run.ts';

// Issue #34, bounded reports: a backend that returns enormous strings (names, values, messages) cannot blow up a
// report. Every reporter cuts such a field to a documented bound with a marker saying how much was cut.

const MARKER = /… \[cut: (\d+) more characters\]$/;

test('boundText keeps a prefix, never splits a surrogate pair, and its marker counts exactly what was cut', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (s, max) => {
      const b = boundText(s, max);
      if (s.length <= max) return b === s;
      const m = MARKER.exec(b);
      assert.ok(m, JSON.stringify(b));
      const kept = b.slice(0, b.length - m[0].length);
      assert.ok(s.startsWith(kept));
      assert.ok(kept.length === max || kept.length === max - 1);
      assert.is(Number(m[1]), s.length - kept.length);
      const last = kept.charCodeAt(kept.length - 1);
      assert.not.ok(last >= 0xd800 && last <= 0xdbff && s.charCodeAt(kept.length) >= 0xdc00, 'a pair was split');
      return true;
    }),
    { numRuns: 500 },
  );
});

/** The whole report reporter `name` writes for the hostile run holding `s`. */
function report(name: string, s: string): string {
  const out: string[] = [];
  feed(
    createReporters(name, (c) => void out.push(c), { verbose: true }),
    s,
  );
  return out.join('');
}

// Where the hostile string sits in the run: about 30 fields, so a report under these sizes holds no field whole.
const LIMIT = { human: 200 * FIELD_BOUND * 4, json: 200 * JSON_FIELD_BOUND };

for (const name of REPORTERS) {
  test(`${name}: a 5 MB name, value and message is cut with a marker; the report stays small`, () => {
    const huge = fc.sample(reportText, { numRuns: 1, seed: 34 })[0]! + 'é𝄞x'.repeat(1_250_000);
    const t0 = performance.now();
    const out = report(name, huge);
    const limit = name === 'json' ? LIMIT.json : LIMIT.human;
    assert.ok(out.length < limit, `${name} wrote ${out.length} characters (limit ${limit})`);
    assert.ok(performance.now() - t0 < 10_000, `${name} took ${Math.round(performance.now() - t0)} ms`);
    const bound = name === 'json' ? JSON_FIELD_BOUND : FIELD_BOUND;
    const cut = huge.length - bound;
    assert.ok(out.includes(`[cut: ${cut} more characters]`) || out.includes(`[cut: ${cut + 1} more characters]`));
  });
}

test('json: every line of the bounded report parses, and the cut name reads back with its marker', () => {
  const huge = 'n'.repeat(5_000_000);
  const lines = report('json', huge).trim().split('\n');
  for (const line of lines) JSON.parse(line);
  const header = JSON.parse(lines[0]!) as { backend: { name: string } };
  assert.is(
    header.backend.name,
    `${'n'.repeat(JSON_FIELD_BOUND)}… [cut: ${5_000_000 - JSON_FIELD_BOUND} more characters]`,
  );
});

test('junit: the bounded report of a 5 MB hostile string parses with xml.etree', () => {
  const huge = '<]]>\uFFFE' + 'v'.repeat(5_000_000);
  const py = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; E.parse(sys.stdin)'], {
    input: report('junit', huge),
    encoding: 'utf8',
  });
  assert.is(py.status, 0, py.stderr);
});

test.run();
