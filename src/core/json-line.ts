/**
 * Characters JSON.stringify leaves raw that common line readers split on: U+2028 and U+2029 (Node's readline,
 * Python's str.splitlines, JavaScript's own line terminators) and U+0085 NEL (str.splitlines). Every other line
 * breaker (\n, \r, \v, \f, \x1c-\x1e) is a control character, which JSON always escapes.
 */
const RAW_LINE_BREAKERS = /[\u0085\u2028\u2029]/g;

/**
 * `value` as JSON text on one line that no common reader cuts: JSON.stringify with the characters above written as
 * \u escapes. They can only occur inside strings, so the text parses to the same value.
 */
export function jsonOneLine(value: unknown): string {
  return JSON.stringify(value).replace(RAW_LINE_BREAKERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
