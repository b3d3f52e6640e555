import type { LineMarker } from './read-vm-log.ts';

export interface OrderProblem {
  line: number;
  message: string;
}

interface Group {
  step: number;
  line: number;
  nodes: string[];
  /** Letters and nodes of the branches logged so far. */
  seen: Set<string>;
  branches: number;
}

/** What the walk remembers between lines. */
interface OrderState {
  last: number;
  prev?: LineMarker;
  group?: Group;
  delegateStep?: number;
  terminal?: LineMarker;
  test?: LineMarker;
}

/**
 * The order of vm.log.md's markers (fs "Event Markers"): each new step is one past the last, starting at 1; a
 * parallel group's branches share its step, one letter each, and close with `N→ ∥done`; delegation
 * lines (`⇒`, the indented `✓`, `⟳`) and the node's outcome after `⟳` share their step, as successive `[eval]`
 * lines may; `---test` comes once after the steps, and `---end` or `---error` once, last.
 */
export function checkOrder(markers: readonly LineMarker[]): OrderProblem[] {
  const out: OrderProblem[] = [];
  const s: OrderState = { last: 0 };
  for (const m of markers) {
    const add = (message: string) => out.push({ line: m.line, message: `line ${m.line}: ${message}` });
    if (s.terminal)
      add(`nothing follows the ${s.terminal.kind === 'end' ? '---end' : '---error'} of line ${s.terminal.line}`);
    if (m.kind === 'end' || m.kind === 'run-error') s.terminal = m;
    else if (m.kind === 'test') {
      if (s.test) add(`a second ---test line (the first is line ${s.test.line})`);
      s.test = m;
    } else {
      if (s.test) add(`a step after the ---test line ${s.test.line}`);
      checkStep(m, s, add);
    }
    s.prev = m;
  }
  if (s.group && s.terminal)
    out.push({
      line: s.group.line,
      message: `line ${s.group.line}: the parallel group ${s.group.step} never logs ∥done`,
    });
  return out;
}

type StepMarker = Exclude<LineMarker, { kind: 'end' | 'run-error' | 'test' }>;

function checkStep(m: StepMarker, s: OrderState, add: (message: string) => void): void {
  if (m.kind === 'branch' || m.kind === 'parallel-done') return checkGroupLine(m, s, add);
  if (s.group) add(`step ${m.step} comes inside the parallel group of line ${s.group.line}, before its ∥done`);
  s.group = undefined;
  if (m.kind === 'delegate-done' || m.kind === 'resumed') {
    if (s.delegateStep !== m.step) add(`${m.kind === 'resumed' ? '⟳' : 'the delegate ✓'} is not in a delegation step`);
    return;
  }
  if (m.step !== s.last + 1 && !continues(m, s))
    add(`step ${m.step} follows step ${s.last}; the next step is ${s.last + 1}`);
  s.last = Math.max(s.last, m.step);
  s.delegateStep = m.kind === 'delegate' ? m.step : m.step === s.delegateStep ? s.delegateStep : undefined;
  if (m.kind === 'parallel-start')
    s.group = { step: m.step, line: m.line, nodes: m.nodes, seen: new Set(), branches: 0 };
}

/** A line that shares the previous step: another `⇒` of a parallel delegation, the outcome after `⟳`, an `[eval]`. */
function continues(m: StepMarker, s: OrderState): boolean {
  const p = s.prev;
  if (!p || !('step' in p) || p.step !== m.step) return false;
  if (m.kind === 'delegate') return p.kind === 'delegate';
  if (m.kind === 'eval') return p.kind === 'eval';
  return m.kind === 'outcome' && p.kind === 'resumed' && p.node === m.node;
}

function checkGroupLine(
  m: StepMarker & { kind: 'branch' | 'parallel-done' },
  s: OrderState,
  add: (message: string) => void,
): void {
  const g = s.group;
  if (!g || g.step !== m.step) {
    add(`${m.kind === 'branch' ? `branch ${m.step}${m.letter}` : `∥done ${m.step}`} has no open "${m.step}→ ∥start"`);
    return;
  }
  if (m.kind === 'parallel-done') {
    if (g.branches !== g.nodes.length) add(`∥done after ${g.branches} of the ${g.nodes.length} branches started`);
    s.group = undefined;
    return;
  }
  // Branches end in any order, so a letter is only checked to be one of the group's and not used twice.
  const last = String.fromCharCode(96 + g.nodes.length);
  const ok =
    m.letter <= last && !g.seen.has(`letter ${m.letter}`) && g.nodes.includes(m.node) && !g.seen.has(`node ${m.node}`);
  if (!ok)
    return add(
      `branch ${m.step}${m.letter}→ ${m.node}: ∥start ${g.nodes.join(',')} has ${m.step}a to ${m.step}${last}, each node once`,
    );
  g.seen.add(`letter ${m.letter}`).add(`node ${m.node}`);
  g.branches++; // counts the branches that ended, for ∥done
}
