import { toResumeState } from '../execution-log.ts';
import { checkName } from '../names.ts';
import { checkRunId, newRunId } from '../run-id.ts';
import { isoSeconds } from '../time-format.ts';
import { byNameThenScope, summary } from './binding-summary.ts';
import type { SemanticsContext } from './context.ts';
import type { HandlerGroup } from './handler-types.ts';

type RunOp = 'createRun' | 'getRun' | 'setRunStatus' | 'createImport' | 'resume';

/** Runs: creating them (and the nested runs of imports), their status, and the state a resume starts from. */
export function runHandlers(ctx: SemanticsContext): HandlerGroup<RunOp> {
  const { store, runOf } = ctx;
  return {
    async createRun(a) {
      // One instant for the id's digits and started:, so they never disagree across a second boundary.
      const at = ctx.now();
      const runId = a.runId === undefined ? newRunId(at, ctx.random) : checkRunId(a.runId);
      const run = await store.createRun({
        runId,
        program: a.program,
        programPath: a.programPath,
        status: 'running',
        startedAt: isoSeconds(at),
      });
      return { runId, run };
    },
    async getRun(a) {
      const r = await runOf(a.run);
      return {
        runId: r.runId,
        status: r.status,
        program: r.program,
        ...(r.programPath !== undefined ? { programPath: r.programPath } : {}),
      };
    },
    async setRunStatus(a) {
      await runOf(a.run);
      await store.setRunStatus(a.run, a.status);
      return {};
    },
    async createImport(a) {
      checkName('handle', a.handle, 'handle');
      checkName('slug', a.slug, 'slug');
      await runOf(a.run);
      const at = ctx.now();
      const run = await store.createImport(a.run, a.handle, a.slug, {
        runId: newRunId(at, ctx.random),
        program: a.program,
        status: 'running',
        startedAt: isoSeconds(at),
      });
      return { run };
    },
    async resume(a) {
      const rec = await runOf(a.run);
      const state = await ctx.stateOf(a.run);
      const bindings = (await store.listBindings(a.run)).map(summary).sort(byNameThenScope);
      return toResumeState(a.run, rec.status, state, bindings);
    },
  };
}
