/**
 * What the long steps tell as they go (test's progress line on a terminal): a crash step after each kill, a
 * concurrent or mixed-writers step when its writes are checked. `key` names the case on its backend.
 */
export interface ProgressSink {
  /** `delayMs`: the seeded wait between the writer's ready and its kill (the kill point; the same whatever --jobs). */
  kill(key: string, done: number, total: number, delayMs: number): void;
  writesChecked(key: string, writes: number): void;
}
