import type { Finding } from '../verify/finding.ts';
import { finding } from './session-rules.ts';

export interface Field {
  value: string;
  line: number;
}

/** The binding block of a confirmation (session.md 7.1). */
export interface BindingBlock {
  name: Field;
  location?: Field;
  executionId?: Field;
  summary?: Field;
}
/** The memory block of a persistent agent's confirmation (session.md 7.4). */
export interface MemoryBlock {
  agent: Field;
  location?: Field;
  segment?: Field;
}

export interface Confirmation {
  binding?: BindingBlock;
  memory?: MemoryBlock;
  /** Lines that are neither confirmation lines, signals, blank lines nor fences. */
  extraLines: number[];
  findings: Finding[];
}

const KEYS = ['Binding written', 'Location', 'Execution ID', 'Summary', 'Memory updated', 'Segment'] as const;
type Key = (typeof KEYS)[number];
const KEY_LINE = /^([A-Za-z][A-Za-z ]*?):(.*)$/;
const FENCE = /^(`{3,}|~{3,})[\w-]*$/;

/**
 * Reads the confirmation lines of a subagent's output. `skip` holds lines another parser owns (signals). Each
 * missing, repeated, misplaced or mis-cased line is a finding; the rest of the message is kept as extra lines.
 */
export function parseConfirmation(text: string, file: string, skip: ReadonlySet<number> = new Set()): Confirmation {
  const out: Confirmation = { extraLines: [], findings: [] };
  let current: 'binding' | 'memory' | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.trim();
    if (skip.has(lineNo) || line === '' || FENCE.test(line)) return;
    const m = KEY_LINE.exec(line);
    const key = m && KEYS.find((k) => k.toLowerCase() === m[1]!.trim().toLowerCase());
    if (!m || !key) {
      out.extraLines.push(lineNo);
      return;
    }
    const where = { file, line: lineNo };
    if (m[1] !== key) {
      out.findings.push(
        finding(
          'message.malformed-line',
          `"${m[1]}:" should be written "${key}:"`,
          where,
          'the VM matches the keys exactly (session.md 7.1)',
        ),
      );
    }
    const value = m[2]!.trim();
    if (value === '') {
      out.findings.push(finding('message.malformed-line', `"${key}:" has no value`, where));
      return;
    }
    const field: Field = { value, line: lineNo };
    if (key === 'Binding written' || key === 'Memory updated') {
      const block = key === 'Binding written' ? 'binding' : 'memory';
      if (out[block]) {
        const first = out.binding && block === 'binding' ? out.binding.name.line : out.memory!.agent.line;
        out.findings.push(
          finding(
            'message.repeated-line',
            `a second "${key}:" (the first is on line ${first})`,
            where,
            'return one binding (and one memory update) per session',
          ),
        );
        current = undefined;
        return;
      }
      if (block === 'binding') out.binding = { name: field };
      else out.memory = { agent: field };
      current = block;
      return;
    }
    place(out, current, key, field, file);
  });
  return out;
}

function place(
  out: Confirmation,
  current: 'binding' | 'memory' | undefined,
  key: Key,
  field: Field,
  file: string,
): void {
  const where = { file, line: field.line };
  const slot: Record<string, keyof BindingBlock | keyof MemoryBlock | undefined> =
    current === 'binding'
      ? { Location: 'location', 'Execution ID': 'executionId', Summary: 'summary' }
      : current === 'memory'
        ? { Location: 'location', Segment: 'segment' }
        : {};
  const name = slot[key];
  if (!current || !name) {
    const owner =
      key === 'Segment'
        ? '"Memory updated:"'
        : key === 'Location'
          ? '"Binding written:" or "Memory updated:"'
          : '"Binding written:"';
    out.findings.push(
      finding(
        'message.order',
        `"${key}:" is not inside a ${owner} block`,
        where,
        'write the lines in the order session.md 7.1 and 7.4 show',
      ),
    );
    return;
  }
  const block = (current === 'binding' ? out.binding : out.memory) as unknown as Record<string, Field | undefined>;
  const prev = block[name];
  if (prev) {
    out.findings.push(
      finding(
        'message.repeated-line',
        `"${key}:" appears again (first on line ${prev.line})`,
        where,
        'give each line once; the VM would not know which to record',
      ),
    );
    return;
  }
  block[name] = field;
}
