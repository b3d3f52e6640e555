import type { Finding } from '../verify/finding.ts';
import { finding } from './session-rules.ts';

/** session.md section 5, as data. `line` is the 1-based line of the signal's first line. */
export type Signal =
  | { type: 'decision'; decision: string; rationale: string; line: number }
  | { type: 'revision'; issues: string[]; requiredChanges: string; line: number }
  | { type: 'concern'; concern: string; severity: 'low' | 'medium' | 'high'; tracking: string; line: number }
  | { type: 'segment-complete'; memoryUpdates: string[]; readyFor: string; line: number };

export interface ParsedSignals {
  signals: Signal[];
  findings: Finding[];
  /** Lines (1-based) that belong to a signal, so the confirmation parser does not count them as extra text. */
  consumed: Set<number>;
}

const STARTS = /^(DECISION:|CONCERN:|SEGMENT COMPLETE\s*$)/;
const FIELD =
  /^(DECISION|RATIONALE|ISSUES|REQUIRED CHANGES|CONCERN|SEVERITY|TRACKING|MEMORY UPDATES|READY FOR):\s*(.*)$/;
const ITEM = /^(?:-|\*|\d+[.)])\s+(.+)$/;
const CONFIRMATION = /^(Binding written|Location|Execution ID|Summary|Memory updated|Segment):/i;

interface Block {
  start: number;
  fields: Map<string, { value: string; line: number; items: string[] }>;
  fieldOrder: string[];
}

/**
 * Reads the signals of a subagent's output. A signal starts at `DECISION:`, `CONCERN:` or `SEGMENT COMPLETE` and runs
 * until the next signal start, a confirmation line, or a line that is neither a field nor a list item. Malformed
 * signals become findings; well-formed ones become data.
 */
export function parseSignals(text: string, file: string): ParsedSignals {
  const lines = text.split(/\r?\n/);
  const out: ParsedSignals = { signals: [], findings: [], consumed: new Set() };
  let block: Block | undefined;
  let lastField: { items: string[] } | undefined;
  const close = () => {
    if (block) readBlock(block, file, out);
    block = undefined;
    lastField = undefined;
  };
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.trim();
    if (STARTS.test(line)) {
      close();
      block = { start: lineNo, fields: new Map(), fieldOrder: [] };
    }
    const field = FIELD.exec(line);
    if (block && (field || line === 'SEGMENT COMPLETE')) {
      out.consumed.add(lineNo);
      if (field) {
        const key = field[1]!;
        if (block.fields.has(key))
          out.findings.push(
            finding('signal.orphan', `${key}: appears twice in the signal starting on line ${block.start}`, {
              file,
              line: lineNo,
            }),
          );
        const entry = { value: field[2]!.trim(), line: lineNo, items: [] as string[] };
        block.fields.set(key, entry);
        block.fieldOrder.push(key);
        lastField = entry;
      }
      return;
    }
    const item = ITEM.exec(line);
    if (block && item && lastField) {
      out.consumed.add(lineNo);
      lastField.items.push(item[1]!.trim());
      return;
    }
    if (block && line === '') return; // blank lines inside a signal are fine
    if (block && (CONFIRMATION.test(line) || line !== '')) close();
    if (field) {
      out.consumed.add(lineNo);
      out.findings.push(
        finding(
          'signal.orphan',
          `${field[1]}: outside a DECISION, CONCERN or SEGMENT COMPLETE signal`,
          { file, line: lineNo },
          'put it right after the signal it belongs to (session.md section 5)',
        ),
      );
    }
  });
  close();
  return out;
}

/** What a reader of one signal kind needs: the block's fields, and ways to report a bad or a foreign field. */
interface BlockReader {
  b: Block;
  field: (key: string) => { value: string; line: number; items: string[] } | undefined;
  bad: (rule: SignalRule, msg: string, hint: string, line?: number) => void;
  /** Reports each field of the block not in `allowed`. */
  foreign: (allowed: string[]) => void;
  out: ParsedSignals;
}
type SignalRule = 'signal.decision' | 'signal.revision' | 'signal.concern' | 'signal.segment-complete';

/** One signal block, by its first field: a revision request, a decision, a concern, or a segment's end. */
function readBlock(b: Block, file: string, out: ParsedSignals): void {
  const field = (key: string) => b.fields.get(key);
  const r: BlockReader = {
    b,
    field,
    bad: (rule, msg, hint, line = b.start) => out.findings.push(finding(rule, msg, { file, line }, hint)),
    foreign: (allowed) => {
      for (const k of b.fieldOrder)
        if (!allowed.includes(k))
          out.findings.push(
            finding('signal.orphan', `${k}: does not belong to this signal`, { file, line: field(k)!.line }),
          );
    },
    out,
  };
  const decision = field('DECISION');
  if (decision && /^request revision\b/i.test(decision.value)) readRevision(r);
  else if (decision) readDecision(r, decision.value);
  else if (field('CONCERN')) readConcern(r, field('CONCERN')!.value);
  else readSegmentComplete(r);
}

/** A field's text: its value on the field line, then its list items. */
const fieldItems = (f: { value: string; items: string[] } | undefined): string[] =>
  f ? [...(f.value ? [f.value] : []), ...f.items] : [];

function readRevision({ b, field, bad, foreign, out }: BlockReader): void {
  foreign(['DECISION', 'ISSUES', 'REQUIRED CHANGES']);
  const items = fieldItems(field('ISSUES'));
  const changes = field('REQUIRED CHANGES');
  const changesText = changes ? [changes.value, ...changes.items].filter(Boolean).join('\n') : '';
  if (items.length === 0)
    bad(
      'signal.revision',
      'DECISION: Request revision without ISSUES: and at least one numbered issue',
      'add "ISSUES:" then "1. {specific issue}" lines',
    );
  if (!changesText)
    bad(
      'signal.revision',
      'DECISION: Request revision without "REQUIRED CHANGES: ..."',
      'say what needs to happen before the work is accepted',
    );
  if (items.length && changesText)
    out.signals.push({ type: 'revision', issues: items, requiredChanges: changesText, line: b.start });
}

function readDecision({ b, field, bad, foreign, out }: BlockReader, decision: string): void {
  foreign(['DECISION', 'RATIONALE']);
  const rationale = field('RATIONALE');
  if (!decision) bad('signal.decision', 'DECISION: has no decision', 'write "DECISION: {what was decided}"');
  else if (!rationale?.value)
    bad('signal.decision', `DECISION: ${decision} has no RATIONALE:`, 'add "RATIONALE: {why}" on the next line');
  else out.signals.push({ type: 'decision', decision, rationale: rationale.value, line: b.start });
}

function readConcern({ b, field, bad, foreign, out }: BlockReader, concern: string): void {
  foreign(['CONCERN', 'SEVERITY', 'TRACKING']);
  const severity = field('SEVERITY')?.value.toLowerCase() ?? '';
  const tracking = field('TRACKING')?.value ?? '';
  let ok = true;
  if (!concern) {
    ok = false;
    bad('signal.concern', 'CONCERN: has no text', 'name the specific concern');
  }
  if (!['low', 'medium', 'high'].includes(severity)) {
    ok = false;
    bad(
      'signal.concern',
      severity
        ? `SEVERITY: ${JSON.stringify(field('SEVERITY')!.value)} is not low, medium or high`
        : 'CONCERN: without SEVERITY:',
      'write "SEVERITY: low", "medium" or "high"',
      field('SEVERITY')?.line ?? b.start,
    );
  }
  if (!tracking) {
    ok = false;
    bad('signal.concern', 'CONCERN: without TRACKING:', 'add "TRACKING: {what to watch for}"');
  }
  if (ok) out.signals.push({ type: 'concern', concern, severity: severity as 'low', tracking, line: b.start });
}

function readSegmentComplete({ b, field, bad, foreign, out }: BlockReader): void {
  foreign(['MEMORY UPDATES', 'READY FOR']);
  const items = fieldItems(field('MEMORY UPDATES'));
  const ready = field('READY FOR')?.value ?? '';
  if (items.length === 0)
    bad(
      'signal.segment-complete',
      'SEGMENT COMPLETE without MEMORY UPDATES: and at least one "- item"',
      'list what goes into memory: understanding, decisions, concerns',
    );
  if (!ready)
    bad('signal.segment-complete', 'SEGMENT COMPLETE without "READY FOR: ..."', 'say what should happen next');
  if (items.length && ready)
    out.signals.push({ type: 'segment-complete', memoryUpdates: items, readyFor: ready, line: b.start });
}
