import fc from 'fast-check';

/**
 * Text that tries to break line-based formats: separators, fences, CR/LF mixes, astral characters, lone surrogates
 * and BOMs, mixed with ordinary code points.
 */
const tricky = fc.constantFrom(
  '---',
  '\n---\n',
  '\n',
  '\r\n',
  '\r',
  '```',
  '````prose',
  '`',
  '# ',
  '## Summary',
  'kind: const',
  'execution_id: 1',
  'source:',
  '"',
  '\\',
  '\u2028',
  '\u0085',
  '\uFEFF',
  '🦀',
  '\uD800',
  '\uDFFF',
  'é',
  'e\u0301',
  '\t',
  '\0',
  ' ',
);
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 2, arbitrary: tricky },
);

export const hostileText = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

/** Hostile text without a line feed (a single header line). */
export const oneLine = hostileText.map((s) => s.replace(/\n/g, ' '));

/** A permutation of `items` driven by `seed` (Fisher-Yates on a small LCG), so shuffles shrink with the seed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
