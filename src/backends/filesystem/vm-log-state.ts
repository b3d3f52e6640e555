import { basename } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import { AppendedBytes } from './appended-bytes.ts';

/** The parallel group a log has open: its step, its branches (as logged) and the branches that have ended. */
export interface OpenGroup {
  step: number;
  nodes: readonly string[];
  ended: ReadonlySet<string>;
}

/** What the log holds so far: the next step number, whether `---end` or `---error` closed it, its open group. */
export interface VmLogState {
  nextStep: number;
  closed: boolean;
  group?: OpenGroup;
}

const MARKER = /^([1-9][0-9]*)([a-z]?)→ (\S+)/;

/** The state after one more line; a new value (a state handed out is never changed), the same one when unchanged. */
function afterLine(s: VmLogState, line: string): VmLogState {
  const m = MARKER.exec(line);
  const closed = s.closed || line.startsWith('---end ') || line.startsWith('---error ');
  if (!m) return closed === s.closed ? s : { ...s, closed };
  const nextStep = Math.max(s.nextStep, Number(m[1]) + 1);
  let group = s.group;
  if (m[2] && group) group = { ...group, ended: new Set(group.ended).add(m[3]!) };
  else if (m[3] === '∥start') group = { step: Number(m[1]), nodes: line.split(' ')[2]!.split(','), ended: new Set() };
  else if (m[3] === '∥done') group = undefined;
  return { nextStep, closed, ...(group ? { group } : {}) };
}

const EMPTY: VmLogState = { nextStep: 1, closed: false };

/** The state after `bytes`, complete lines only, starting from `from`. */
function afterBytes(from: VmLogState, bytes: Buffer): VmLogState {
  if (bytes.length === 0) return from;
  let s = from;
  for (const line of bytes
    .subarray(0, bytes.length - 1)
    .toString('utf8')
    .split('\n'))
    s = afterLine(s, line);
  return s;
}

/**
 * Each run's vm.log.md state as last read: a marker is numbered one past the last step, and the log was read whole
 * for it, so a marker cost O(log). A read now takes only the lines appended since (appended-bytes.ts), by whoever
 * appended them; a log changed otherwise is read from its start (decision fs-append-only-tail).
 */
export class VmLogStates {
  private readonly seen = new Map<string, { bytes: AppendedBytes; state: VmLogState }>();

  /** The state of a run's log, `file` its vm.log.md; E_CORRUPT when it has none (a current run is made with one). */
  read(file: string): VmLogState {
    let entry = this.seen.get(file);
    if (entry === undefined) this.seen.set(file, (entry = { bytes: new AppendedBytes(), state: EMPTY }));
    const got = entry.bytes.read(file);
    if (got.from === 'missing') {
      this.seen.delete(file);
      throw new ProseError('E_CORRUPT', `the run has no ${basename(file)}`, {
        location: { file: basename(file) },
        hint: 'the log is made with the run and only appended to; restore it from the last good copy',
      });
    }
    entry.state = afterBytes(got.from === 'end' ? entry.state : EMPTY, got.bytes);
    return entry.state;
  }

  clear(): void {
    this.seen.clear();
  }
}
