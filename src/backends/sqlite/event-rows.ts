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

/**
 * Maps an event onto the seed's columns, with the status tokens of sqlite.md at HEAD (started, completed, joined,
 * iteration, exited, failed, retry) and the seed's metadata keys (parallel_id, branch, strategy, branches, loop_id,
 * max_iterations, current_iteration, retry_attempt, max_retries; "Loop Tracking", "Error Handling"), so the seed's
 * json_extract queries work on our files. `metadata.event` names the event type so `rowToEvent` rebuilds it exactly.
 */
export function eventToRow(e: ExecutionEvent): EventRow {
  const row = (status: string, metadata: Record<string, unknown>, extra: Partial<EventRow> = {}): EventRow => ({
    statement_index: null,
    statement_text: null,
    error_message: null,
    parent: null,
    status,
    metadata: { event: e.type, ...metadata },
    completed: status === 'completed' || status === 'failed' || status === 'skipped',
    ...extra,
  });
  switch (e.type) {
    case 'statement':
      return row(e.status, 'executionId' in e ? { execution_id: e.executionId ?? null } : {}, {
        statement_index: e.index,
        statement_text: e.text,
        error_message: e.error ?? null,
        parent: e.executionId != null ? { event: 'frame-enter', executionId: e.executionId } : null,
      });
    case 'frame-enter':
      return row(
        'started',
        {
          execution_id: e.executionId,
          block: e.block,
          parent: e.parent,
          depth: e.depth,
          ...(e.args ? { args: e.args } : {}),
        },
        {
          statement_text: e.block,
          parent: e.parent !== null ? { event: 'frame-enter', executionId: e.parent } : null,
        },
      );
    case 'frame-exit':
      return row(
        e.status,
        { execution_id: e.executionId },
        { parent: { event: 'frame-enter', executionId: e.executionId } },
      );
    case 'parallel-start':
      return row(
        'started',
        {
          parallel_id: e.id,
          strategy: e.strategy,
          branches: e.branches,
          ...(e.count !== undefined ? { count: e.count } : {}),
          ...(e.onFail !== undefined ? { on_fail: e.onFail } : {}),
        },
        { statement_text: 'parallel:' },
      );
    case 'branch':
      return row(
        e.status,
        { parallel_id: e.id, branch: e.branch },
        { statement_text: e.branch, parent: { event: 'parallel-start', id: e.id } },
      );
    case 'parallel-join':
      return row('joined', { parallel_id: e.id }, { parent: { event: 'parallel-start', id: e.id } });
    case 'loop-start':
      return row(
        'started',
        {
          loop_id: e.id,
          ...(e.max !== undefined ? { max_iterations: e.max } : {}),
          current_iteration: 0,
          ...(e.condition !== undefined ? { condition: e.condition } : {}),
        },
        { statement_text: 'loop:' },
      );
    case 'loop-iteration':
      return row('iteration', { loop_id: e.id, current_iteration: e.iteration });
    case 'loop-exit':
      return row('exited', { loop_id: e.id, reason: e.reason });
    case 'retry':
      return row(
        'retry',
        { retry_attempt: e.attempt, max_retries: e.max },
        { statement_index: e.index, error_message: e.error ?? null },
      );
    case 'error':
      return row('failed', {}, { statement_index: e.index, error_message: e.message });
    case 'anon':
      return row('allocated', { name: e.name }, { statement_text: e.name });
  }
}

export interface StoredRow {
  statement_index: number | null;
  statement_text: string | null;
  status: string | null;
  error_message: string | null;
  metadata: string | null;
}

const STATEMENT_STATUSES: readonly string[] = ['executing', 'completed', 'failed', 'skipped'];

/**
 * The inverse of `eventToRow`. A row without `metadata.event` was written by someone else (the seed's own
 * `sqlite3 ... INSERT INTO execution` commands): it reads as a statement event when its status is one, else it is
 * not an event of ours and is skipped.
 */
export function rowToEvent(r: StoredRow): ExecutionEvent | undefined {
  let m: Record<string, unknown> = {};
  try {
    const parsed: unknown = r.metadata ? JSON.parse(r.metadata) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) m = parsed as Record<string, unknown>;
  } catch {
    m = {};
  }
  const opt = <K extends string>(key: K, value: unknown) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, never>>;
  switch (m.event) {
    case 'statement':
      return {
        type: 'statement',
        index: r.statement_index!,
        text: r.statement_text ?? '',
        status: r.status as StatementStatus,
        ...('execution_id' in m ? { executionId: m.execution_id as number | null } : {}),
        ...opt('error', r.error_message ?? undefined),
      };
    case 'frame-enter':
      return {
        type: 'frame-enter',
        executionId: m.execution_id as number,
        block: m.block as string,
        parent: m.parent as number | null,
        depth: m.depth as number,
        ...opt('args', m.args),
      };
    case 'frame-exit':
      return { type: 'frame-exit', executionId: m.execution_id as number, status: r.status as 'completed' | 'failed' };
    case 'parallel-start':
      return {
        type: 'parallel-start',
        id: m.parallel_id as string,
        strategy: m.strategy as 'all',
        branches: m.branches as string[],
        ...opt('count', m.count),
        ...opt('onFail', m.on_fail),
      };
    case 'branch':
      return {
        type: 'branch',
        id: m.parallel_id as string,
        branch: m.branch as string,
        status: r.status as 'completed',
      };
    case 'parallel-join':
      return { type: 'parallel-join', id: m.parallel_id as string };
    // The keys before the seed's (max, iteration, attempt) are still read, so files written earlier resume.
    case 'loop-start':
      return {
        type: 'loop-start',
        id: m.loop_id as string,
        ...opt('max', m.max_iterations ?? m.max),
        ...opt('condition', m.condition),
      };
    case 'loop-iteration':
      return {
        type: 'loop-iteration',
        id: m.loop_id as string,
        iteration: (m.current_iteration ?? m.iteration) as number,
      };
    case 'loop-exit':
      return { type: 'loop-exit', id: m.loop_id as string, reason: m.reason as 'max' };
    case 'retry':
      return {
        type: 'retry',
        index: r.statement_index!,
        attempt: (m.retry_attempt ?? m.attempt) as number,
        max: (m.max_retries ?? m.max) as number,
        ...opt('error', r.error_message ?? undefined),
      };
    case 'error':
      return { type: 'error', index: r.statement_index!, message: r.error_message ?? '' };
    case 'anon':
      return { type: 'anon', name: m.name as string };
    default:
      if (m.event === undefined && r.status && STATEMENT_STATUSES.includes(r.status) && r.statement_index !== null) {
        return {
          type: 'statement',
          index: r.statement_index,
          text: r.statement_text ?? '',
          status: r.status as StatementStatus,
        };
      }
      return undefined;
  }
}
