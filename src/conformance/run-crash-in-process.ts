import type { Backend } from '../core/backend.ts';
import { toProseError } from '../core/errors.ts';
import { checkWritten } from './check-written.ts';
import type { WorkerContext, WorkerVerdict } from './run-workers.ts';
import { withTimeout } from './with-timeout.ts';
import { seededRandom, workItem, type Workload } from './workload.ts';

/** What the in-process crash needs beyond a worker context: the instance to drop without closing it. */
export interface InProcessCrashContext extends WorkerContext {
  /** Forgets the open backend without closing it (a crash: nothing it would do on close happens) and returns it. */
  abandon(): Backend | undefined;
}

/**
 * The crash area for a backend that cannot run in a second process: the runner makes the workload's calls itself,
 * and at each of `kills` seeded points drops the backend without closing it and opens a fresh instance on the same
 * storage, which must hold every write acknowledged so far, whole. What a dropped instance still had queued (a
 * write it answered before making) is exactly what a crash loses; dropped instances are closed only once every check
 * is done, so their late writes cannot hide a loss from a check.
 */
export async function runCrashInProcess(
  step: { workload: Workload; kills: number },
  ctx: InProcessCrashContext,
): Promise<WorkerVerdict> {
  const random = seededRandom(ctx.seed);
  const acks = new Map<string, unknown>();
  const dropped: Backend[] = [];
  let next = 0;
  try {
    for (let k = 1; k <= step.kills; k++) {
      const backend = await ctx.reopen();
      // 0..7 writes before each crash: the points fall right after an answer, where a write-behind backend has
      // not written yet.
      const writes = Math.floor(random() * 8);
      for (let n = 0; n < writes; n++, next++) {
        const item = workItem(
          step.workload,
          ctx.run,
          0,
          next,
          ctx.factory.capabilities,
          ctx.env.decisions.attachmentThresholdBytes,
        );
        try {
          acks.set(item.key, await backend.call(item.op, item.args as never, item.actor));
        } catch (err) {
          const e = toProseError(err);
          return {
            ok: false,
            message: `crash ${k}: ${item.key} was refused before the crash: ${e.code}: ${e.message}`,
          };
        }
      }
      const gone = ctx.abandon();
      if (gone) dropped.push(gone);
      const problem = await withTimeout(
        ctx.reopen().then((fresh) => checkWritten(fresh, ctx.factory, ctx.run, acks, ctx.env)),
        2 * ctx.readyTimeoutMs,
        `crash ${k} of ${step.kills}: opening a fresh instance and reading back ${acks.size} acknowledged writes`,
      );
      if (problem)
        return {
          ok: false,
          message: `crash ${k} of ${step.kills} (the instance was dropped unclosed after ${writes} acknowledged writes): ${problem}`,
        };
    }
  } finally {
    for (const b of dropped) await b.close().catch(() => undefined);
  }
  await ctx.reopen();
  return { ok: true, metrics: { 'simulated crashes': step.kills, 'crash writes': acks.size } };
}
