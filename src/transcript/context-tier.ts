import type { Decisions } from '../core/decisions.ts';

export type ContextTier = 'verbatim' | 'summarize' | 'extract';

/**
 * The seed's context passing rule (in-context.md "Context Serialization"): < 2000 chars pass verbatim,
 * 2000-8000 summarize to key points, > 8000 extract essentials. Characters are Unicode code points and both ends
 * of "2000-8000" are inclusive (docs: decisions `context-tier-*`), so 1999 is verbatim, 2000 and 8000 summarize,
 * 8001 extracts.
 */
export function contextTier(
  value: string,
  decisions: Pick<Decisions, 'contextVerbatimBelow' | 'contextSummarizeUpTo'>,
): ContextTier {
  const n = codePointLength(value, decisions.contextSummarizeUpTo + 1);
  if (n < decisions.contextVerbatimBelow) return 'verbatim';
  if (n <= decisions.contextSummarizeUpTo) return 'summarize';
  return 'extract';
}

/**
 * Code points in `s`, counting a lone surrogate as one (as string iteration does); stops counting at `stopAt`
 * so a megabyte value costs no more than the threshold.
 */
export function codePointLength(s: string, stopAt = Infinity): number {
  let n = 0;
  for (let i = 0; i < s.length && n < stopAt; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i += 1;
    }
    n += 1;
  }
  return n;
}
