/**
 * Text made safe inside XML 1.0 elements and double-quoted attributes. XML cannot carry most control characters,
 * U+FFFE/U+FFFF or a lone surrogate even as a character reference, so each becomes U+FFFD: the file stays readable
 * and a reader still sees that something was there.
 */
export function escapeXml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
