import type { ExecutionEvent } from '../../core/model.ts';

export interface EventColumns {
  statementIndex: number | null;
  statementText: string | null;
  status: string | null;
  executionId: number | null;
  errorMessage: string | null;
  /** Whether the row records an end (sets completed_at). */
  completed: boolean;
}

/**
 * The spec's execution columns an event fills, so the table reads as postgres.md describes it; the whole event
 * is in `metadata` too, which is what the log is rebuilt from (docs/decisions.md `pg-execution-events`).
 */
export function eventColumns(e: ExecutionEvent): EventColumns {
  const c: EventColumns = {
    statementIndex: null,
    statementText: null,
    status: null,
    executionId: null,
    errorMessage: null,
    completed: false,
  };
  switch (e.type) {
    case 'statement':
      return {
        ...c,
        statementIndex: e.index,
        statementText: e.text,
        status: e.status,
        executionId: e.executionId ?? null,
        errorMessage: e.error ?? null,
        completed: e.status !== 'executing',
      };
    case 'frame-enter':
      return { ...c, statementText: e.block, status: 'executing', executionId: e.executionId };
    case 'frame-exit':
      return { ...c, status: e.status, executionId: e.executionId, completed: true };
    case 'branch':
      return { ...c, status: e.status, completed: e.status !== 'executing' };
    case 'retry':
      return { ...c, statementIndex: e.index, errorMessage: e.error ?? null };
    case 'error':
      return { ...c, statementIndex: e.index, status: 'failed', errorMessage: e.message, completed: true };
    default:
      return c;
  }
}
