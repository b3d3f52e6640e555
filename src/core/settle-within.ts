import { timeoutAfterIo } from './timeout-after-io.ts';

/**
 * `p`, or the error `late()` makes when `p` has not settled `ms` after the call (one poll phase later, as an exec
 * request's timer: timeout-after-io.ts). A promise that never settles holds nothing on the event loop, so without
 * this timer a hung call (a module plugin's, a step's) lets the loop drain and Node ends the run with exit code 13
 * and no report. The hung promise is left behind; nothing can cancel it.
 */
export function settleWithin<T>(p: Promise<T>, ms: number, late: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timeoutAfterIo(() => reject(late()), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
