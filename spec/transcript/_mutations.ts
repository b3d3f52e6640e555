import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';

const root = new URL('../fixtures/transcripts/', import.meta.url);

/** Every fixture transcript, valid and broken: the seeds the fuzzer edits. */
export const FIXTURE_TEXTS: string[] = ['valid/', 'broken/'].flatMap((d) =>
  readdirSync(new URL(d, root)).map((f) => readFileSync(new URL(d + f, root), 'utf8')),
);

type Edit = (lines: string[], text: string) => string;
const junk = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '[Frame-] Exiting block: x (execution_id: 99)',
    '[Bogus] x',
    '∥ done',
    '#7 done',
    'loop:9/2',
    '[Binding] let x = "',
    '[',
    '   - a: pending',
    '∥ [a✓ b',
    '3→ ✗',
    '[Parallel] Parallel complete:',
    '[Loop] Iteration 5 of max 2',
    '#1 "done"',
    '[Frame+] Entering block: p (execution_id: 1, depth: 1)',
  ),
);

/** One random edit: delete, duplicate or swap lines, cut mid-line, insert junk, or drop random Unicode in. */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map((n): Edit => (ls) => {
    ls.splice(n % Math.max(1, ls.length), 1);
    return ls.join('\n');
  }),
  fc.nat().map((n): Edit => (ls) => {
    const i = n % Math.max(1, ls.length);
    ls.splice(i, 0, ls[i] ?? '');
    return ls.join('\n');
  }),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Edit => (ls) => {
    if (ls.length) {
      const i = a % ls.length;
      const j = b % ls.length;
      [ls[i], ls[j]] = [ls[j]!, ls[i]!];
    }
    return ls.join('\n');
  }),
  fc.nat().map(
    (n): Edit =>
      (_ls, text) =>
        text.slice(0, n % (text.length + 1)),
  ),
  fc.tuple(fc.nat(), junk).map(([n, j]): Edit => (ls) => {
    ls.splice(n % (ls.length + 1), 0, j);
    return ls.join('\n');
  }),
  fc.tuple(fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 4 })).map(([n, u]): Edit => (_ls, text) => {
    const at = n % (text.length + 1);
    return text.slice(0, at) + u + text.slice(at);
  }),
);

/** A valid or broken fixture after one to five random edits. */
export const mutatedTranscript = fc
  .tuple(fc.constantFrom(...FIXTURE_TEXTS), fc.array(edit, { minLength: 1, maxLength: 5 }))
  .map(([text, edits]) => edits.reduce((t, e) => e(t.split('\n'), t), text));
