import { newRunId } from '../../core/run-id.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

/**
 * The wall clock of the zone the process runs in, as a Date whose UTC fields read local time: what a backend gets
 * by formatting getHours() and friends (or a local-time library default) where the spec writes UTC.
 */
function localAsUtc(now = new Date()): Date {
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
}

/**
 * A backend that stamps local time wherever the spec writes UTC, consistently: a generated run id's digits (and so
 * started:, which reads them) and a segment's default timestamp. Under UTC it is a correct backend; the runner's
 * non-UTC zone (run-zone.ts) and the clock step's readings around the call are what kill it.
 */
export const LOCAL_TIME_MUTANTS: Mutant[] = [
  mutant('local-time-stamps', "generated run ids and default segment timestamps carry the local time of the run's TZ", {
    intercept: async (op, args, actor, ctx) => {
      if (op === 'createRun' && args.runId === undefined)
        return pass(op, { ...args, runId: newRunId(localAsUtc()) }, actor, ctx);
      if (op === 'appendSegment' && args.timestamp === undefined) {
        const stamp = `${localAsUtc().toISOString().slice(0, 19)}Z`;
        return pass(op, { ...args, timestamp: stamp }, actor, ctx);
      }
      return pass(op, args, actor, ctx);
    },
  }),
];
