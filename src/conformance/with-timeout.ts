import { ProseError } from '../core/errors.ts';
import { settleWithin } from '../core/settle-within.ts';

/**
 * Races `p` against a timer; on expiry the step errors with E_BACKEND naming what hung (the promise is left behind),
 * or with what `timedOut` gives, for a caller that answers a timeout its own way (a capability probe).
 */
export function withTimeout<T>(
  p: Promise<T>,
  ms: number,
  what: string,
  timedOut: () => unknown = () => new ProseError('E_BACKEND', `timed out after ${ms} ms: ${what}`),
): Promise<T> {
  return settleWithin(p, ms, timedOut);
}
