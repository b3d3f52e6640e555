import { jsonOneLine } from '../core/json-line.ts';

/**
 * How free text sits inside a narration line (docs/in-context.md "Value encoding"): every value, statement text,
 * program source, memory or error the store writes is a JSON string literal on one line. JSON escapes newlines,
 * quotes, backslashes, control characters and lone surrogates, so `---`, fences, CRLF and any Unicode survive
 * exactly; we also escape U+0085, U+2028 and U+2029 because some readers split lines on them (jsonOneLine).
 */
export function encodeText(s: string): string {
  return jsonOneLine(s);
}

/** A name written bare when it is a plain word (the seed writes `let research`), else as a JSON literal. */
const BARE_TOKEN = /^[\p{L}\p{N}_][\p{L}\p{N}_.\-@]*$/u;

export function encodeToken(s: string): string {
  return BARE_TOKEN.test(s) ? s : encodeText(s);
}

export interface Read<T> {
  value: T;
  /** Index just after what was read. */
  end: number;
}

/** Reads a JSON string literal starting at `pos` (which must hold `"`); undefined when it is unterminated or invalid. */
export function readJsonString(s: string, pos: number): Read<string> | undefined {
  if (s[pos] !== '"') return undefined;
  let i = pos + 1;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"') {
      try {
        const value: unknown = JSON.parse(s.slice(pos, i + 1));
        return typeof value === 'string' ? { value, end: i + 1 } : undefined;
      } catch {
        return undefined;
      }
    }
    i += 1;
  }
  return undefined;
}

/** True when `s` holds a `"` that opens a string literal never closed (the line was cut in the middle of a value). */
export function hasUnterminatedString(s: string): boolean {
  let i = 0;
  while (i < s.length) {
    if (s[i] === '"') {
      const r = readJsonString(s, i);
      if (!r) return scanToQuote(s, i + 1) < 0;
      i = r.end;
    } else {
      i += 1;
    }
  }
  return false;
}

function scanToQuote(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') {
      i += 1;
      continue;
    }
    if (s[i] === '"') return i;
  }
  return -1;
}

/** Reads a name at `pos` after white space: a JSON literal, or a bare run up to white space or punctuation. */
export function readToken(s: string, pos: number): Read<string> | undefined {
  let i = pos;
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i += 1;
  if (s[i] === '"') return readJsonString(s, i);
  const m = /^[^\s,():=|"[\]{}]+/u.exec(s.slice(i));
  return m ? { value: m[0], end: i + m[0].length } : undefined;
}

/** A value as written after `=`: a JSON literal decodes exactly; anything else (an LLM's `<result>`) stays raw. */
export function decodeValue(raw: string): { value: string; exact: boolean } {
  const t = raw.trim();
  if (t.startsWith('"')) {
    const r = readJsonString(t, 0);
    if (r && r.end === t.length) return { value: r.value, exact: true };
  }
  return { value: t, exact: false };
}

/** `<result>` and `...` stand for a value the narration did not spell out. */
export function isPlaceholder(raw: string): boolean {
  const t = raw.trim();
  return /^<[^<>]*>$/.test(t) || t === '...' || t === '';
}
