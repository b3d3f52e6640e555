import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readVmLog } from '../../../src/verify/current-run/read-vm-log.ts';
import { splitLines } from '../../../src/verify/current-run/text-lines.ts';
import { checkOrder } from '../../../src/verify/current-run/vm-log-order.ts';

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '# run:',
  '20260317-143052-a7b3c9',
  ' x',
  'root: ',
  'upstream: [',
  ']',
  '\n',
  '1',
  '2a',
  '→ ',
  '→   ',
  '✓',
  ' rendered',
  '∅ skipped',
  '✗ ',
  '∥start a,b',
  '∥done',
  '⇒ d (delegate: r)',
  '⟳ (resumed)',
  '[input] ',
  '[eval] ',
  '---end ',
  '---error ',
  '---test PASS',
  'a',
  ' ',
  '\r',
  '\xff',
];

test('500 logs of random pieces and bytes: read and ordered without a throw, every problem with a line', () => {
  for (let seed = 1; seed <= 500; seed++) {
    const next = random(seed);
    const parts: Buffer[] = [];
    for (let i = 0, n = Math.floor(next() * 40); i < n; i++)
      parts.push(
        next() < 0.1
          ? Buffer.from([Math.floor(next() * 256)])
          : Buffer.from(PIECES[Math.floor(next() * PIECES.length)]!),
      );
    const log = readVmLog(splitLines(Buffer.concat(parts)).lines);
    for (const p of [...log.problems, ...checkOrder(log.markers)])
      assert.ok(Number.isInteger(p.line) && p.line >= 1, `seed ${seed}`);
  }
});

test.run();
