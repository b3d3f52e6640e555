import type { ExecutionEvent, StatementStatus } from '../../core/model.ts';

/** One INSERT-only row of the seed's `execution` table. `parentEvent` names the row parent_id points at. */
export interface EventRow {
  statement_index: number | null;
  statement_text: string | null;
  status: string;
  error_message: string | null;
  metadata: Record<string, unknown>;
  /** parent_id is the row id of the frame (or parallel) this event belongs to, looked up by the store. */
  parent: { event: 'frame-enter'; executionId: number } | { event: 'parallel-start'; id: string } | null;
  completed: boolean;
}

type EventType = ExecutionEvent['type'];
type EventOf<K extends EventType> = Extract<ExecutionEvent, { type: K }>;

function row(
  type: EventType,
  status: string,
  metadata: Record<string, unknown>,
  extra: Partial<EventRow> = {},
): EventRow {
  return {
    statement_index: null,
    statement_text: null,
    error_message: null,
    parent: null,
    status,
    metadata: { event: type, ...metadata },
    completed: status === 'completed' || status === 'failed' || status === 'skipped',
    ...extra,
  };
}

/** One writer per event kind; the table's type makes a new kind a compile error until it has one. */
const TO_ROW: { [K in EventType]: (e: EventOf<K>) => EventRow } = {
  statement: (e) =>
    row(e.type, e.status, 'executionId' in e ? { execution_id: e.executionId ?? null } : {}, {
      statement_index: e.index,
      statement_text: e.text,
      error_message: e.error ?? null,
      parent: e.executionId != null ? { event: 'frame-enter', executionId: e.executionId } : null,
    }),
  'frame-enter': (e) =>
    row(
      e.type,
      'started',
      {
        execution_id: e.executionId,
        block: e.block,
        parent: e.parent,
        depth: e.depth,
        ...(e.args ? { args: e.args } : {}),
      },
      { statement_text: e.block, parent: e.parent !== null ? { event: 'frame-enter', executionId: e.parent } : null },
    ),
  'frame-exit': (e) =>
    row(
      e.type,
      e.status,
      { execution_id: e.executionId },
      { parent: { event: 'frame-enter', executionId: e.executionId } },
    ),
  'parallel-start': (e) =>
    row(
      e.type,
      'started',
      {
        parallel_id: e.id,
        strategy: e.strategy,
        branches: e.branches,
        ...(e.count !== undefined ? { count: e.count } : {}),
        ...(e.onFail !== undefined ? { on_fail: e.onFail } : {}),
      },
      { statement_text: 'parallel:' },
    ),
  branch: (e) =>
    row(
      e.type,
      e.status,
      { parallel_id: e.id, branch: e.branch },
      { statement_text: e.branch, parent: { event: 'parallel-start', id: e.id } },
    ),
  'parallel-join': (e) =>
    row(e.type, 'joined', { parallel_id: e.id }, { parent: { event: 'parallel-start', id: e.id } }),
  'loop-start': (e) =>
    row(
      e.type,
      'started',
      {
        loop_id: e.id,
        ...(e.max !== undefined ? { max_iterations: e.max } : {}),
        current_iteration: 0,
        ...(e.condition !== undefined ? { condition: e.condition } : {}),
      },
      { statement_text: 'loop:' },
    ),
  'loop-iteration': (e) => row(e.type, 'iteration', { loop_id: e.id, current_iteration: e.iteration }),
  'loop-exit': (e) => row(e.type, 'exited', { loop_id: e.id, reason: e.reason }),
  retry: (e) =>
    row(
      e.type,
      'retry',
      { retry_attempt: e.attempt, max_retries: e.max },
      { statement_index: e.index, error_message: e.error ?? null },
    ),
  error: (e) => row(e.type, 'failed', {}, { statement_index: e.index, error_message: e.message }),
  anon: (e) => row(e.type, 'allocated', { name: e.name }, { statement_text: e.name }),
};

/**
 * Maps an event onto the seed's columns, with the status tokens of sqlite.md at HEAD (started, completed, joined,
 * iteration, exited, failed, retry) and the seed's metadata keys (parallel_id, branch, strategy, branches, loop_id,
 * max_iterations, current_iteration, retry_attempt, max_retries; "Loop Tracking", "Error Handling"), so the seed's
 * json_extract queries work on our files. `metadata.event` names the event type so `rowToEvent` rebuilds it exactly.
 */
export function eventToRow(e: ExecutionEvent): EventRow {
  return (TO_ROW[e.type] as (e: ExecutionEvent) => EventRow)(e);
}

export interface StoredRow {
  statement_index: number | null;
  statement_text: string | null;
  status: string | null;
  error_message: string | null;
  metadata: string | null;
}

const STATEMENT_STATUSES: readonly string[] = ['executing', 'completed', 'failed', 'skipped'];

type Metadata = Record<string, unknown>;

const opt = <K extends string>(key: K, value: unknown) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, never>>;

/** One reader per event kind, the inverse of its writer in `TO_ROW`. */
const FROM_ROW: { [K in EventType]: (r: StoredRow, m: Metadata) => EventOf<K> } = {
  statement: (r, m) => ({
    type: 'statement',
    index: r.statement_index!,
    text: r.statement_text ?? '',
    status: r.status as StatementStatus,
    ...('execution_id' in m ? { executionId: m.execution_id as number | null } : {}),
    ...opt('error', r.error_message ?? undefined),
  }),
  'frame-enter': (_r, m) => ({
    type: 'frame-enter',
    executionId: m.execution_id as number,
    block: m.block as string,
    parent: m.parent as number | null,
    depth: m.depth as number,
    ...opt('args', m.args),
  }),
  'frame-exit': (r, m) => ({
    type: 'frame-exit',
    executionId: m.execution_id as number,
    status: r.status as 'completed' | 'failed',
  }),
  'parallel-start': (_r, m) => ({
    type: 'parallel-start',
    id: m.parallel_id as string,
    strategy: m.strategy as 'all',
    branches: m.branches as string[],
    ...opt('count', m.count),
    ...opt('onFail', m.on_fail),
  }),
  branch: (r, m) => ({
    type: 'branch',
    id: m.parallel_id as string,
    branch: m.branch as string,
    status: r.status as 'completed',
  }),
  'parallel-join': (_r, m) => ({ type: 'parallel-join', id: m.parallel_id as string }),
  // The keys before the seed's (max, iteration, attempt) are still read, so files written earlier resume.
  'loop-start': (_r, m) => ({
    type: 'loop-start',
    id: m.loop_id as string,
    ...opt('max', m.max_iterations ?? m.max),
    ...opt('condition', m.condition),
  }),
  'loop-iteration': (_r, m) => ({
    type: 'loop-iteration',
    id: m.loop_id as string,
    iteration: (m.current_iteration ?? m.iteration) as number,
  }),
  'loop-exit': (_r, m) => ({ type: 'loop-exit', id: m.loop_id as string, reason: m.reason as 'max' }),
  retry: (r, m) => ({
    type: 'retry',
    index: r.statement_index!,
    attempt: (m.retry_attempt ?? m.attempt) as number,
    max: (m.max_retries ?? m.max) as number,
    ...opt('error', r.error_message ?? undefined),
  }),
  error: (r) => ({ type: 'error', index: r.statement_index!, message: r.error_message ?? '' }),
  anon: (_r, m) => ({ type: 'anon', name: m.name as string }),
};

function parseMetadata(text: string | null): Metadata {
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Metadata) : {};
  } catch {
    return {};
  }
}

/** A row the seed's own `INSERT INTO execution` wrote (no `metadata.event`): a statement when its status is one. */
function foreignRowToEvent(r: StoredRow): ExecutionEvent | undefined {
  if (r.status && STATEMENT_STATUSES.includes(r.status) && r.statement_index !== null) {
    return {
      type: 'statement',
      index: r.statement_index,
      text: r.statement_text ?? '',
      status: r.status as StatementStatus,
    };
  }
  return undefined;
}

/**
 * The inverse of `eventToRow`. A row without `metadata.event` was written by someone else (the seed's own
 * `sqlite3 ... INSERT INTO execution` commands): it reads as a statement event when its status is one, else it is
 * not an event of ours and is skipped.
 */
export function rowToEvent(r: StoredRow): ExecutionEvent | undefined {
  const m = parseMetadata(r.metadata);
  const kind = m.event;
  // hasOwn, so a foreign `event` such as "toString" is not mistaken for a kind of ours.
  if (typeof kind === 'string' && Object.hasOwn(FROM_ROW, kind)) return FROM_ROW[kind as EventType](r, m);
  return kind === undefined ? foreignRowToEvent(r) : undefined;
}
