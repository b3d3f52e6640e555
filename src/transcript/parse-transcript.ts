import { linkStructure } from './link-structure.ts';
import type { Dialect, Diagnostic, ParseResult, RunWord, TranscriptEvent } from './narration-event.ts';
import { readCompactLine } from './parse-compact-line.ts';
import {
  readVerboseMarker,
  VERBOSE_MARKERS,
  type Continuation,
  type MarkerReading,
  type VerboseMarker,
} from './parse-verbose-marker.ts';
import { hasUnterminatedString } from './value-codec.ts';

export interface ParseOptions {
  /** `auto` (default) reads both dialects line by line, as a conversation may switch between them. */
  dialect?: Dialect | 'auto';
}

interface Group {
  marker: VerboseMarker;
  text: string;
  line: number;
  indent: number;
  cont: Continuation[];
  /** Set when the group is a run announcement (`OpenProse Run Start`), read as the `[Program]` line it stands for. */
  said?: RunWord;
}

const KNOWN = new Set<string>(VERBOSE_MARKERS);
const MARKER_LINE = /^\[([A-Za-z]+[+-]?)\](?:\s+(.*)|\s*)$/s;
// The run announcement of in-context.md ("OpenProse Run Start", v0 "OpenProse Program Start") and the store's other
// run lines in that form; each is read as the [Program] line it stands for.
const ANNOUNCE = /^OpenProse (Run|Program) (Start|Continuing|Complete|Failed|Interrupted|Running)\b(.*)$/s;
const RUN_KINDS = new Set(['run-start', 'run-switch', 'run-status']);
const AS_PROGRAM_LINE: Record<string, string> = { Start: 'Program Start', Continuing: 'Continuing run' };

/**
 * Reads a transcript back into events with line numbers, plus diagnostics. It never throws on bad input: an
 * unknown marker, a marker it cannot read, a line cut in the middle, or broken nesting each become a diagnostic.
 * Plain conversation between markers is ignored, as the seed's narration lives inside a conversation.
 */
export function parseTranscript(text: string, opts: ParseOptions = {}): ParseResult {
  // A byte-order mark is not part of the first line's marker.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.length === 0 ? [] : body.split('\n');
  if (body.endsWith('\n')) lines.pop();
  const reader = new LineReader(opts.dialect ?? 'auto', lines.length, body.length === 0 || body.endsWith('\n'));
  lines.forEach((l, i) => reader.line(l.endsWith('\r') ? l.slice(0, -1) : l, i + 1));
  reader.flush();
  const events = linkStructure(reader.events, reader.diagnostics);
  const compact = events.filter((e) => e.dialect === 'compact').length;
  return {
    events,
    diagnostics: reader.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column),
    dialect: compact > events.length - compact ? 'compact' : 'verbose',
    lineCount: lines.length,
  };
}

/** One pass over the lines: a verbose marker collects its indented continuation lines; a compact marker stands alone. */
class LineReader {
  events: TranscriptEvent[] = [];
  diagnostics: Diagnostic[] = [];
  private group: Group | undefined;
  // After an unknown marker its indented lines are skipped rather than taken for a known marker's continuation.
  private skipIndent: number | undefined;

  constructor(
    private readonly dialect: Dialect | 'auto',
    private readonly lineCount: number,
    private readonly endsClean: boolean,
  ) {}

  line(raw: string, lineNo: number): void {
    const body = raw.trimStart();
    const indent = raw.length - body.length;
    if (body.length === 0) return this.reset();
    const a = ANNOUNCE.exec(body);
    if (a) {
      this.reset();
      const text = (AS_PROGRAM_LINE[a[2]!] ?? `Program ${a[2]}`) + a[3]!.trimEnd();
      this.group = {
        marker: 'Program',
        text,
        line: lineNo,
        indent,
        cont: [],
        said: a[1] === 'Run' ? 'run' : 'program',
      };
      return;
    }
    const m = this.dialect !== 'compact' ? MARKER_LINE.exec(body) : null;
    if (m) {
      this.reset();
      if (KNOWN.has(m[1]!))
        this.group = { marker: m[1] as VerboseMarker, text: (m[2] ?? '').trimEnd(), line: lineNo, indent, cont: [] };
      else {
        this.diag('parse.unknown-marker', 'warning', lineNo, indent + 1, `unknown marker [${m[1]}]`);
        this.skipIndent = indent;
      }
      return;
    }
    const c = this.dialect !== 'verbose' ? readCompactLine(body.trimEnd()) : undefined;
    if (c) {
      this.reset();
      this.emit(c, lineNo, indent, 'compact', lineNo, [body]);
      return;
    }
    if (this.group && indent > this.group.indent) {
      this.group.cont.push({ text: body.trimEnd(), line: lineNo });
      return;
    }
    if (this.skipIndent !== undefined && indent > this.skipIndent) return;
    this.reset();
    if (/^\[[A-Za-z]*[+-]?$/.test(body)) {
      if (this.isCut(lineNo))
        this.diag('parse.truncated', 'error', lineNo, raw.length + 1, 'the transcript ends in the middle of a marker');
      else this.diag('parse.malformed', 'error', lineNo, indent + 1, 'a marker is not closed with "]"');
    }
  }

  flush(): void {
    const g = this.group;
    if (!g) return;
    this.group = undefined;
    const last = g.cont.length ? g.cont.at(-1)!.line : g.line;
    const r = readVerboseMarker(g.marker, g.text, g.cont);
    const said = g.said;
    const read = said ? { ...r, events: r.events.map((e) => (RUN_KINDS.has(e.kind) ? { ...e, said } : e)) } : r;
    this.emit(read, g.line, g.indent, 'verbose', last, [g.text, ...g.cont.map((c) => c.text)]);
  }

  private reset(): void {
    this.flush();
    this.skipIndent = undefined;
  }

  private isCut(lineNo: number): boolean {
    return !this.endsClean && lineNo === this.lineCount;
  }

  private diag(rule: string, severity: Diagnostic['severity'], line: number, column: number, message: string): void {
    this.diagnostics.push({ rule, severity, line, column, message });
  }

  /** Records what a marker said; a problem on the last line of a text without a final newline is a cut, not a typo. */
  private emit(r: MarkerReading, line: number, indent: number, d: Dialect, lastLine: number, raw: string[]): void {
    const unterminated = d === 'verbose' && raw.some(hasUnterminatedString);
    if (r.problem || unterminated) {
      const why = r.problem ?? 'a string literal is not terminated';
      if (this.isCut(lastLine))
        this.diag(
          'parse.truncated',
          'error',
          lastLine,
          raw.at(-1)!.length + 1,
          `the transcript ends in the middle of a line: ${why}`,
        );
      else this.diag('parse.malformed', 'error', line, indent + 1, why);
      if (r.problem) return;
    }
    for (const e of r.events) this.events.push({ ...e, line, column: indent + 1, indent, dialect: d });
  }
}
