/**
 * Writes a mutant answers before it makes them: `defer` queues one, written within a second or at the next `flush`.
 * A dropped or killed instance's queue is lost, which is the bug; a late write landing after the runner's check
 * (storage gone) fails for nobody.
 */
export function writeQueue(): { defer(write: () => Promise<unknown>): void; flush(): Promise<void> } {
  let queue: (() => Promise<unknown>)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const pending = queue;
    queue = [];
    for (const write of pending) await write();
  };
  return {
    flush,
    defer(write) {
      queue.push(write);
      timer ??= setTimeout(() => void flush().catch(() => undefined), 1000);
      timer.unref();
    },
  };
}
