/**
 * The markers of vm.log.md (fs and prose.md "Event Markers"), read into values. Pure: one line in, one marker or
 * a reason out. The decisions of conformance/decisions/editions.yaml settle the forms the texts leave open.
 */

/** How a node's step ended: `✓ rendered`, `∅ skipped`, `✗ name`, `⊘ terminated (reason)`, or a bare `✓`. */
export type Outcome = 'rendered' | 'skipped' | 'error' | 'terminated' | 'done';

export type Marker =
  | { kind: 'input'; step: number; name: string }
  | { kind: 'outcome'; step: number; node: string; outcome: Outcome; detail?: string }
  | { kind: 'branch'; step: number; letter: string; node: string; outcome: Outcome; detail?: string }
  | { kind: 'parallel-start'; step: number; nodes: string[] }
  | { kind: 'parallel-done'; step: number }
  | { kind: 'delegate'; step: number; node: string; delegate: string; id: string }
  | { kind: 'delegate-done'; step: number; delegate: string }
  | { kind: 'resumed'; step: number; node: string }
  | { kind: 'eval'; step: number; passed: boolean; text: string }
  | { kind: 'test'; passed: boolean }
  | { kind: 'end'; at: string }
  | { kind: 'run-error'; at: string; message: string };

export type ParsedMarker = { marker: Marker } | { problem: string };

const STEP = /^([1-9][0-9]*)([a-z]?)→( +)(.*)$/;
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:/-]*$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** One line after the header: a marker, or why it is none. */
export function parseMarker(line: string): ParsedMarker {
  if (line.startsWith('---')) return parseRunLine(line);
  const m = STEP.exec(line);
  if (!m)
    return {
      problem: `${JSON.stringify(line.slice(0, 80))} is not a marker ("N→ …", "---end", "---error", "---test")`,
    };
  const step = Number(m[1]);
  if (!Number.isSafeInteger(step)) return { problem: `step ${m[1]} is too large` };
  const [, , letter, spaces, rest] = m as unknown as [string, string, string, string, string];
  if (letter) return parseBranch(step, letter, spaces, rest);
  if (spaces.length > 1) return parseDelegateDone(step, rest);
  return parseStep(step, rest);
}

function parseRunLine(line: string): ParsedMarker {
  if (line === '---test PASS') return { marker: { kind: 'test', passed: true } };
  const fail = /^---test FAIL \((\d+)\/(\d+) assertions\)$/.exec(line);
  if (fail)
    return Number(fail[1]) <= Number(fail[2]) && Number(fail[2]) > 0
      ? { marker: { kind: 'test', passed: false } }
      : bad(line);
  const end = /^---end (\S+)$/.exec(line);
  if (end) return ISO.test(end[1]!) ? { marker: { kind: 'end', at: end[1]! } } : badTime(end[1]!);
  const err = /^---error (\S+) (\S.*)$/.exec(line);
  if (err)
    return ISO.test(err[1]!) ? { marker: { kind: 'run-error', at: err[1]!, message: err[2]! } } : badTime(err[1]!);
  return bad(line);
}

function parseStep(step: number, rest: string): ParsedMarker {
  let m: RegExpExecArray | null;
  if ((m = /^\[input\] (\S+) ✓$/.exec(rest))) return named(m[1]!, (name) => ({ kind: 'input', step, name }));
  if ((m = /^\[eval\] (.+?) ([✓✗])(?: .*)?$/.exec(rest)))
    return { marker: { kind: 'eval', step, passed: m[2] === '✓', text: m[1]! } };
  if ((m = /^∥start (.+)$/.exec(rest))) return parallelStart(step, m[1]!);
  if (rest === '∥done') return { marker: { kind: 'parallel-done', step } };
  if ((m = /^(\S+) ⇒ (\S+) \(delegate: ([^()\s]+)\)$/.exec(rest))) {
    const [, node, delegate, id] = m as unknown as [string, string, string, string];
    return NAME.test(node) && NAME.test(delegate)
      ? { marker: { kind: 'delegate', step, node, delegate, id } }
      : bad(rest);
  }
  if ((m = /^(\S+) ⟳ \(resumed\)$/.exec(rest))) return named(m[1]!, (node) => ({ kind: 'resumed', step, node }));
  const o = parseOutcome(rest);
  return 'problem' in o ? o : { marker: { kind: 'outcome', step, ...o } };
}

function parseBranch(step: number, letter: string, spaces: string, rest: string): ParsedMarker {
  if (spaces.length > 1) return bad(rest);
  const o = parseOutcome(rest);
  return 'problem' in o ? o : { marker: { kind: 'branch', step, letter, ...o } };
}

function parseDelegateDone(step: number, rest: string): ParsedMarker {
  const m = /^(\S+) ✓$/.exec(rest);
  return m ? named(m[1]!, (delegate) => ({ kind: 'delegate-done', step, delegate })) : bad(rest);
}

type NodeOutcome = { node: string; outcome: Outcome; detail?: string };

/** `node ✓ rendered`, `node ∅ skipped`, `node ✗ error-name`, `node ⊘ terminated (reason)` or `node ✓`. */
function parseOutcome(rest: string): NodeOutcome | { problem: string } {
  const m = /^(\S+) (✓ rendered|∅ skipped|✓|✗ (\S+)|⊘ terminated \(([^()]*[^()\s][^()]*)\))$/.exec(rest);
  if (!m || !NAME.test(m[1]!)) return { problem: `"${rest}" is not a marker` };
  const node = m[1]!;
  if (m[2] === '✓ rendered') return { node, outcome: 'rendered' };
  if (m[2] === '∅ skipped') return { node, outcome: 'skipped' };
  if (m[2] === '✓') return { node, outcome: 'done' };
  if (m[3] !== undefined) return { node, outcome: 'error', detail: m[3] };
  return { node, outcome: 'terminated', detail: m[4]!.trim() };
}

function parallelStart(step: number, list: string): ParsedMarker {
  const nodes = list.split(',').map((s) => s.trim());
  if (nodes.length < 1 || !nodes.every((n) => NAME.test(n))) return bad(`∥start ${list}`);
  return { marker: { kind: 'parallel-start', step, nodes } };
}

function named(name: string, make: (name: string) => Marker): ParsedMarker {
  return NAME.test(name) ? { marker: make(name) } : { problem: `${JSON.stringify(name)} is not a name` };
}

const bad = (text: string): { problem: string } => ({ problem: `"${text}" is not a marker` });
const badTime = (at: string): { problem: string } => ({
  problem: `${JSON.stringify(at)} is not an ISO 8601 timestamp`,
});
