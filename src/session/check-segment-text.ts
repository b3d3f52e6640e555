import { parseSegmentFile } from '../core/formats/segment-file.ts';
import { ProseError } from '../core/errors.ts';
import { ISO_TIMESTAMP } from '../core/time-format.ts';
import type { Finding } from '../verify/finding.ts';
import { finding, type Where } from './session-rules.ts';
import { isSpecific } from './specificity.ts';

const FIELDS = ['Reviewed', 'Found', 'Decided', 'Next'] as const;

/**
 * Validates a segment file (session.md 6.3 and filesystem.md's example): heading `# Segment NNN` (matching the file
 * name's number), `timestamp:` ISO 8601, `prompt: "..."`, `## Summary` with Reviewed / Found / Decided / Next.
 * When the checks here pass, the backends' own parser must read the file too (its strict blank-line layout).
 */
export function checkSegmentFile(text: string, file: string, fileNumber: number | undefined): Finding[] {
  const out: Finding[] = [];
  const lines = text.split(/\r?\n/);
  const at = (line: number): Where => ({ file, line });
  checkSegmentHeading(lines[0], fileNumber, at, out);
  const summaryAt = lines.findIndex((l) => l.trim() === '## Summary');
  const header = lines.slice(1, summaryAt === -1 ? lines.length : summaryAt);
  checkTimestampLine(header, at, out);
  checkPromptLine(header, at, out);
  if (summaryAt === -1) {
    out.push(finding('segment.format', 'no "## Summary" section', at(lines.length)));
    return out;
  }
  out.push(...checkSummary(lines.slice(summaryAt + 1).join('\n'), { file }, summaryAt + 2));
  if (out.some((f) => f.severity === 'error')) return out;
  try {
    parseSegmentFile(text, file);
  } catch (err) {
    if (!(err instanceof ProseError)) throw err;
    out.push(
      finding(
        'segment.format',
        err.message,
        at(err.location?.line ?? 1),
        'the layout is: heading, blank, timestamp:, prompt:, blank, ## Summary, blank, summary',
      ),
    );
  }
  return out;
}

type At = (line: number) => Where;

/** `# Segment NNN`, the number the file name gives. */
function checkSegmentHeading(first: string | undefined, fileNumber: number | undefined, at: At, out: Finding[]): void {
  const head = /^# Segment (\d{3,})$/.exec(first ?? '');
  if (!head)
    out.push(
      finding(
        'segment.format',
        `expected "# Segment NNN", found ${JSON.stringify(first ?? '')}`,
        at(1),
        'the first line is "# Segment 003" for captain-003.md',
      ),
    );
  else if (fileNumber !== undefined && Number(head[1]) !== fileNumber) {
    out.push(
      finding(
        'segment.number-mismatch',
        `the heading says segment ${Number(head[1])} but the file is number ${fileNumber}`,
        at(1),
      ),
    );
  }
}

/** `timestamp:` in the header lines (those after the heading), ISO 8601 with a zone. */
function checkTimestampLine(header: string[], at: At, out: Finding[]): void {
  const ts = header.findIndex((l) => l.startsWith('timestamp:'));
  if (ts === -1) {
    const hint = 'add "timestamp: 2026-01-15T14:32:15Z" (UTC, ISO 8601)';
    out.push(finding('segment.timestamp', 'no "timestamp:" line', at(3), hint));
    return;
  }
  const v = header[ts]!.slice(10).trim();
  if (!ISO_TIMESTAMP.test(v))
    out.push(
      finding(
        'segment.timestamp',
        `timestamp ${JSON.stringify(v)} is not ISO 8601 with a zone`,
        at(ts + 2),
        'for example 2026-01-15T14:32:15Z',
      ),
    );
}

/** `prompt:` in the header lines, one JSON-quoted string. */
function checkPromptLine(header: string[], at: At, out: Finding[]): void {
  const pr = header.findIndex((l) => l.startsWith('prompt:'));
  if (pr === -1) {
    out.push(finding('segment.prompt', 'no "prompt:" line', at(4), 'add prompt: "{the prompt for this session}"'));
    return;
  }
  let ok = false;
  try {
    ok = typeof JSON.parse(header[pr]!.slice(7).trim()) === 'string';
  } catch {
    ok = false;
  }
  if (!ok) {
    const hint = 'quote it, escaping " and newlines as \\" and \\n';
    out.push(finding('segment.prompt', 'the prompt is not one quoted string', at(pr + 2), hint));
  }
}

/**
 * The Summary body: `- Reviewed:`, `- Found:`, `- Decided:`, `- Next:` once each, in order (Found may hold
 * sub-bullets), then the specificity warning. `firstLine` is the file line of the body's first line (for rows, omit).
 */
export function checkSummary(summary: string, where: Where, firstLine?: number): Finding[] {
  const out: Finding[] = [];
  const lines = summary.split(/\r?\n/);
  const at = (i: number): Where => (firstLine !== undefined ? { ...where, line: firstLine + i } : where);
  const seen = new Map<string, number>();
  lines.forEach((l, i) => {
    const m = /^- (\w+):/.exec(l);
    if (!m || !(FIELDS as readonly string[]).includes(m[1]!)) return;
    if (seen.has(m[1]!)) out.push(finding('segment.summary-field', `"- ${m[1]}:" appears twice`, at(i)));
    else seen.set(m[1]!, i);
  });
  let last = -1;
  for (const f of FIELDS) {
    const i = seen.get(f);
    if (i === undefined)
      out.push(
        finding(
          'segment.summary-field',
          `the summary has no "- ${f}:" line`,
          at(lines.length - 1),
          'the summary lists Reviewed, Found, Decided and Next (session.md 6.3)',
        ),
      );
    else if (i < last)
      out.push(
        finding(
          'segment.summary-field',
          `"- ${f}:" comes before a field it should follow`,
          at(i),
          'order: Reviewed, Found, Decided, Next',
        ),
      );
    else last = i;
  }
  if (summary.trim() !== '' && !isSpecific(summary)) {
    out.push(
      finding(
        'segment.specificity',
        'the summary names no location, number or identifier',
        at(0),
        'compaction is not summarization: record file:line, exact findings, thresholds and names (session.md 3.1, 3.6)',
      ),
    );
  }
  return out;
}
