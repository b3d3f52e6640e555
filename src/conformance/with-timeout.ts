import { ProseError } from '../core/errors.ts';

/**
 * Races `p` against a timer; on expiry the step errors with E_BACKEND naming what hung (the promise is left behind),
 * or with what `timedOut` gives, for a caller that answers a timeout its own way (a capability probe).
 */
export async function withTimeout<T>(
  p: Promise<T>,
  ms: number,
  what: string,
  timedOut: () => unknown = () => new ProseError('E_BACKEND', `timed out after ${ms} ms: ${what}`),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
