import type { Finding } from '../verify/finding.ts';
import { finding, type Where } from './session-rules.ts';
import { isSpecific } from './specificity.ts';

const REQUIRED = ['Current Understanding', 'Decisions Made', 'Open Concerns'] as const;
const DATED = /^- (\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?): (.+)$/;
// A rationale: after a dash separator (the seed's " — "), in a closing parenthesis (filesystem.md's example), or "because".
const RATIONALE = /\s(?:—|–|--|-)\s+\S|\([^)]*\w[^)]*\)\s*\.?$|\b(?:because|since|so that)\b/i;

export interface MemoryTextOptions {
  /** Findings point here: a file, or a table and row. Lines are added for files. */
  where: Where;
  /** The agent the memory belongs to; the heading must name it. */
  agent?: string;
}

/**
 * Validates an agent memory against session.md 6.3 (`# Agent Memory: NAME`, Current Understanding, Decisions Made
 * as dated entries, Open Concerns). Extra sections of 3.4 and 4.1 (`## Segment N Summary`, `## Recent Segments`, ...)
 * are allowed; segment summaries in it get the specificity warning.
 */
export function checkMemoryText(text: string, opts: MemoryTextOptions): Finding[] {
  const out: Finding[] = [];
  const lines = text.split(/\r?\n/);
  const at = (line: number): Where => (opts.where.file !== undefined ? { ...opts.where, line } : opts.where);
  checkHeading(lines[0], opts.agent, at, out);
  const sections = readSections(lines, at, out);
  for (const name of REQUIRED) {
    if (!sections.has(name))
      out.push(
        finding('memory.section', `no "## ${name}" section`, at(lines.length), `add "## ${name}" (session.md 6.3)`),
      );
  }
  checkDecisions(sections.get('Decisions Made')?.body ?? [], at, out);
  checkSegmentSummaries(sections, at, out);
  return out;
}

type At = (line: number) => Where;
type Line = { text: string; line: number };

/** `# Agent Memory: NAME`, naming the agent when it is known. */
function checkHeading(first: string | undefined, agent: string | undefined, at: At, out: Finding[]): void {
  const head = /^# Agent Memory: (.+)$/.exec(first?.trim() ?? '');
  if (!head)
    out.push(
      finding(
        'memory.heading',
        `expected "# Agent Memory: ${agent ?? 'NAME'}", found ${JSON.stringify(first ?? '')}`,
        at(1),
      ),
    );
  else if (agent !== undefined && head[1]!.trim() !== agent)
    out.push(
      finding(
        'memory.heading',
        `the memory is headed ${JSON.stringify(head[1])}, not the agent ${JSON.stringify(agent)}`,
        at(1),
      ),
    );
}

/** The `## ` sections by name, each with its heading line and body; a required section twice is a finding. */
function readSections(lines: string[], at: At, out: Finding[]): Map<string, { line: number; body: Line[] }> {
  const sections = new Map<string, { line: number; body: Line[] }>();
  let current: Line[] | undefined;
  lines.forEach((raw, i) => {
    const h = /^##\s+(.+?)\s*$/.exec(raw);
    if (h && !raw.startsWith('###')) {
      const name = h[1]!;
      if (sections.has(name) && (REQUIRED as readonly string[]).includes(name)) {
        out.push(
          finding(
            'memory.section',
            `"## ${name}" appears twice (first on line ${sections.get(name)!.line})`,
            at(i + 1),
            'keep one section and merge the entries',
          ),
        );
      }
      current = [];
      sections.set(name, { line: i + 1, body: current });
      return;
    }
    current?.push({ text: raw, line: i + 1 });
  });
  return sections;
}

/** Each entry of Decisions Made: `- {date}: {decision}`, with a rationale. */
function checkDecisions(body: Line[], at: At, out: Finding[]): void {
  for (const entry of body) {
    const t = entry.text;
    if (t.trim() === '' || /^\s+/.test(t)) continue; // blank lines and continuation lines
    const m = DATED.exec(t.trimEnd());
    if (!m) {
      out.push(
        finding(
          'memory.decision-format',
          `decision ${JSON.stringify(t.trim())} is not "- {date}: {decision} — {rationale}"`,
          at(entry.line),
          'start each decision with "- YYYY-MM-DD: "',
        ),
      );
      continue;
    }
    if (!RATIONALE.test(m[2]!)) {
      out.push(
        finding(
          'memory.decision-rationale',
          `decision "${m[2]}" gives no rationale`,
          at(entry.line),
          'add " — {why}" so future sessions can keep or revisit it (session.md 3.2)',
        ),
      );
    }
  }
}

/** `## Segment N Summary` sections (3.4, 4.1) get the specificity warning. */
function checkSegmentSummaries(sections: Map<string, { line: number; body: Line[] }>, at: At, out: Finding[]): void {
  for (const [name, s] of sections) {
    if (!/^Segment\s+\d+\s+Summary$/i.test(name)) continue;
    if (!isSpecific(s.body.map((b) => b.text).join('\n'))) {
      out.push(
        finding(
          'memory.specificity',
          `"## ${name}" names no location, number or identifier`,
          at(s.line),
          'record what was reviewed where (file:line), exact findings and names (session.md 3.1, 3.5)',
        ),
      );
    }
  }
}
