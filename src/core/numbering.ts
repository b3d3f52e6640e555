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

/** The number in a segment file name of `agent`, or undefined when the name is not one of its segments. */
export function parseSegmentFileName(agent: string, file: string): number | undefined {
  if (!file.startsWith(`${agent}-`) || !file.endsWith('.md')) return undefined;
  const digits = file.slice(agent.length + 1, -3);
  return /^\d{3,}$/.test(digits) && (digits.length === 3 || !digits.startsWith('0')) ? Number(digits) : undefined;
}
