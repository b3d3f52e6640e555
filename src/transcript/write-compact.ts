import type { NarrationEvent } from './narration-event.ts';
import { formatParams } from './trailing-params.ts';
import { encodeText, encodeToken } from './value-codec.ts';
import { writeVerbose } from './write-verbose.ts';

const PAD = '  ';
const MARK = { completed: '✓', failed: '✗', executing: '→' } as const;
const STATUS_HEAD = { executing: '', completed: '✓', failed: '✗', skipped: '⊘' } as const;

/**
 * Renders one event in the compact dialect (in-context.md at HEAD) where it has a marker, and in the verbose
 * dialect where it has none (runs, bindings, memory, segments: HEAD leaves values to "spawn_session results in
 * conversation"). What HEAD's markers leave implicit (statement text, ids, strategy) rides in a trailing list.
 */
export function writeCompact(e: NarrationEvent, depth = 0): string {
  const line = compactLine(e);
  if (line === undefined) return writeVerbose(e, depth);
  return PAD.repeat(Math.max(0, depth)) + line + '\n';
}

type EventOf<K extends NarrationEvent['kind']> = Extract<NarrationEvent, { kind: K }>;

function compactLine(e: NarrationEvent): string | undefined {
  const write = COMPACT[e.kind] as ((e: NarrationEvent) => string | undefined) | undefined;
  return write?.(e);
}

/** The kinds HEAD gives a marker; a writer may still answer undefined (a statement without an index). */
const COMPACT: { [K in NarrationEvent['kind']]?: (e: EventOf<K>) => string | undefined } = {
  statement: (e) => {
    if (e.index === undefined) return undefined;
    const head =
      e.binds !== undefined && e.status === 'completed' ? `${encodeToken(e.binds)} ✓` : STATUS_HEAD[e.status];
    const params = formatParams([
      ['text', e.text],
      ['execution_id', e.executionId === null ? 'root' : e.executionId],
      ['error', e.error],
    ]);
    return `${e.index}→${head ? ` ${head}` : ''}${params}`;
  },
  'frame-enter': (e) => {
    const name = e.block === 'done' ? encodeText(e.block) : encodeToken(e.block);
    return `#${e.executionId} ${name}${formatParams([
      ['parent', e.parent ?? undefined],
      ['depth', e.depth],
      ['args', e.args && JSON.stringify(e.args)],
    ])}`;
  },
  'frame-exit': (e) =>
    `#${e.executionId} done${formatParams([['status', e.status === 'failed' ? 'failed' : undefined]])}`,
  'parallel-start': (e) =>
    `∥ [${e.branches.map(encodeToken).join(' ')}]${formatParams([
      ['strategy', e.strategy],
      ['count', e.count],
      ['on-fail', e.onFail],
      ['parallel', e.id],
    ])}`,
  branch: (e) => `∥ [${encodeToken(e.branch)}${MARK[e.status]}]${formatParams([['parallel', e.id]])}`,
  'parallel-join': (e) => `∥ done${formatParams([['parallel', e.id]])}`,
  'loop-start': (e) =>
    `loop start${formatParams([
      ['max', e.max],
      ['condition', e.condition],
      ['loop', e.id],
    ])}`,
  'loop-iteration': (e) =>
    `loop:${e.iteration}${e.max === undefined ? '' : `/${e.max}`}${formatParams([['loop', e.id]])}`,
  'loop-exit': (e) =>
    `loop exit${formatParams([
      ['reason', e.reason],
      ['loop', e.id],
    ])}`,
  retry: (e) =>
    e.index === undefined ? undefined : `${e.index}→ retry:${e.attempt}/${e.max}${formatParams([['error', e.error]])}`,
  try: (e) =>
    e.phase === 'try' ? 'try→' : e.phase === 'finally' ? 'finally→' : `catch→${e.error ? ` ${e.error}` : ''}`,
  call: (e) => {
    const outcome = e.ok ? `${e.result ? `${e.result} ` : ''}✓` : `✗${e.error ? ` ${e.error}` : ''}`;
    return `call ${e.target}(${e.args}) → ${outcome}`;
  },
  'run-status': (e) => (e.status === 'end' ? '---end' : undefined),
};
