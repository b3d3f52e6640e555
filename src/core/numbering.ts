/** Zero-padded numbering that grows past its width instead of wrapping: anon_999, anon_1000. */
export function padNumber(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function anonName(n: number, width: number): string {
  return `anon_${padNumber(n, width)}`;
}

/** `captain-001.md` */
export function segmentFileName(agent: string, n: number, width: number): string {
  return `${agent}-${padNumber(n, width)}.md`;
}

/**
 * The number in a segment file name of `agent` written at `width`, or undefined when the name is not one of its
 * segments: at least `width` digits, and no leading zero beyond the padding.
 */
export function parseSegmentFileName(agent: string, file: string, width = 3): number | undefined {
  if (!file.startsWith(`${agent}-`) || !file.endsWith('.md')) return undefined;
  const digits = file.slice(agent.length + 1, -3);
  if (!/^\d+$/.test(digits) || digits.length < width) return undefined;
  return digits.length === width || !digits.startsWith('0') ? Number(digits) : undefined;
}
