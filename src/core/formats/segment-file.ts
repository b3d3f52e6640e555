import { ProseError } from '../errors.ts';
import { padNumber } from '../numbering.ts';

/**
 * The seed's segment file (filesystem.md "agents/{name}/{name}-NNN.md"):
 *
 *   # Segment 001
 *
 *   timestamp: 2026-01-15T14:32:15Z
 *   prompt: "Review the research findings"
 *
 *   ## Summary
 *
 *   {summary, verbatim to the end of the file}
 *
 * The prompt is written as a JSON string literal so quotes and newlines in it survive (docs/decisions.md).
 */
export interface SegmentFile {
  number: number;
  timestamp: string;
  prompt: string;
  summary: string;
}

export function formatSegmentFile(s: SegmentFile, width: number): string {
  return `# Segment ${padNumber(s.number, width)}\n\ntimestamp: ${s.timestamp}\nprompt: ${JSON.stringify(s.prompt)}\n\n## Summary\n\n${s.summary}`;
}

export function parseSegmentFile(text: string, file = '<segment>'): SegmentFile {
  const lines = text.split('\n');
  const fail = (line: number, message: string): never => {
    throw new ProseError('E_FORMAT', message, { location: { file, line } });
  };
  const m = /^# Segment (\d{3,})$/.exec(lines[0] ?? '');
  if (!m) fail(1, `expected "# Segment NNN", found ${JSON.stringify(lines[0] ?? '')}`);
  if (lines[1] !== '') fail(2, 'expected a blank line after the heading');
  if (!lines[2]?.startsWith('timestamp: ')) fail(3, 'expected "timestamp: ISO8601"');
  if (!lines[3]?.startsWith('prompt: ')) fail(4, 'expected "prompt: \\"...\\""');
  let prompt: unknown;
  try {
    prompt = JSON.parse(lines[3]!.slice(8));
  } catch {
    fail(4, 'the prompt is not a quoted string');
  }
  if (typeof prompt !== 'string') fail(4, 'the prompt is not a quoted string');
  if (lines[4] !== '' || lines[5] !== '## Summary' || lines[6] !== '')
    fail(5, 'expected a blank line, "## Summary" and a blank line');
  const headerLength = lines.slice(0, 7).reduce((n, l) => n + l.length + 1, 0);
  return {
    number: Number(m![1]),
    timestamp: lines[2]!.slice(11),
    prompt: prompt as string,
    summary: text.slice(headerLength),
  };
}
