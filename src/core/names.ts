import { ProseError } from './errors.ts';

/** Longest name in UTF-8 bytes: `{name}__{execution_id}.md` must still fit a 255-byte file name. */
export const MAX_NAME_BYTES = 200;

// Windows also treats the superscript digits as device numbers: COM¹, LPT³.
const WINDOWS_DEVICE =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)(\..*)?$/i;
// Bidirectional marks, overrides and isolates make a name read differently from what it is.
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
// C0 and C1 controls, and the Unicode line and paragraph separators (a line break inside a heading).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

export type NameKind = 'binding' | 'agent' | 'handle' | 'slug' | 'node' | 'block';

/** Kinds whose names become file or directory names as they are (nodes are stored hex-encoded, blocks not at all). */
const FILE_NAMED: ReadonlySet<NameKind> = new Set(['binding', 'agent', 'handle', 'slug']);

/**
 * Refuses names that could escape a directory or collide on some file system, before anything is written.
 * The rules are listed in docs/decisions.md (`names`).
 */
export function checkName(kind: NameKind, name: unknown, field: string = kind): string {
  const fail = (why: string, hint?: string): never => {
    throw new ProseError('E_INVALID_NAME', `${kind} name ${JSON.stringify(name)} ${why}`, {
      location: { field },
      hint,
    });
  };
  if (typeof name !== 'string') return fail('is not a string');
  if (name.length === 0) fail('is empty');
  if (name.includes('/') || name.includes('\\')) fail('contains a path separator', 'use a plain name, not a path');
  if (name.includes('..')) fail('contains ".."', 'names may not contain ".."');
  if (name.startsWith('.')) fail('starts with "."', 'hidden names are refused');
  if (CONTROL.test(name)) fail('contains a control character (NUL, newline, ...)');
  if (BIDI_CONTROL.test(name)) fail('contains a bidirectional control character');
  if (!name.isWellFormed()) fail('contains a lone surrogate', 'names must be valid Unicode');
  if (name !== name.normalize('NFC'))
    fail('is not in Unicode NFC form', 'normalize the name to NFC; an NFD twin would collide on macOS');
  if (name.trim() !== name) fail('has leading or trailing white space');
  if (WINDOWS_DEVICE.test(name)) fail('is a reserved device name on Windows');
  if (FILE_NAMED.has(kind) && name.includes(':'))
    fail('contains ":"', 'on Windows "a:b" is an alternate data stream of "a" and "C:x" is relative to drive C');
  if (FILE_NAMED.has(kind) && name.endsWith('.'))
    fail('ends in "."', 'Windows drops trailing dots, so "a." and "a" would be one file');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) fail(`is longer than ${MAX_NAME_BYTES} bytes of UTF-8`);
  if (kind === 'binding' && /__\d+$/.test(name)) {
    fail('ends in "__" and digits', 'that suffix is how scoped binding files name their execution_id');
  }
  if (kind === 'handle' && (name.includes('--') || name.endsWith('-'))) {
    fail(
      name.includes('--') ? 'contains "--"' : 'ends in "-"',
      'imports are stored as {handle}--{slug}, so the first "--" must end the handle',
    );
  }
  return name;
}
