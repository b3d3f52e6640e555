import type { ExecutionEvent, RunStatus } from '../../core/model.ts';

/** What `state.md` holds for the backend: the run's header fields and its event log (state-md.ts renders and parses it). */
export interface StateDoc {
  runId: string;
  programPath: string;
  status: RunStatus;
  started: string;
  updated: string;
  events: readonly ExecutionEvent[];
}
