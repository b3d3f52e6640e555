/**
 * `setTimeout` for a verdict of "no answer in time", given one poll phase first. Timers run before I/O in each turn
 * of Node's loop, so after the loop was held (a busy machine, other work in this process) the timer fires ahead of
 * an answer already waiting in a pipe. `late` runs after that poll phase and checks itself whether the answer came
 * meanwhile. clearTimeout on the result works as on any timer.
 */
export function timeoutAfterIo(late: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(() => setImmediate(late), ms);
}
