/** One line of a text file: its 1-based number and its text, or undefined when its bytes are not UTF-8. */
export interface TextLine {
  n: number;
  text: string | undefined;
}

export interface TextLines {
  lines: TextLine[];
  /** False when the last line has no newline (a torn append). Empty files count as ending cleanly. */
  endsWithNewline: boolean;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Splits bytes at LF and decodes each line on its own, so one bad line is reported with its number while the rest
 * stay readable. A CR before the LF is kept in the text: the formats here are LF-only and a CR is a finding.
 */
export function splitLines(bytes: Uint8Array): TextLines {
  const lines: TextLine[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    if (i === bytes.length && start === i) break;
    lines.push({ n: lines.length + 1, text: decode(bytes.subarray(start, i)) });
    start = i + 1;
  }
  return { lines, endsWithNewline: bytes.length === 0 || bytes[bytes.length - 1] === 0x0a };
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
