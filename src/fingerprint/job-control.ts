/**
 * The control words a reader thread's two job kinds share, in the job's Int32Array: word 0 is each kind's own (a
 * batch job's next batch to claim, a frames job's slots published), then how many slots the hashing thread is done
 * with, an abort flag, and how many readers are inside the job (-1: closed). So a reader thread enters and leaves
 * both kinds the same way, and the hashing thread ends both the same way.
 */
export const CONSUMED = 1;
export const ABORT = 2;
export const ACTIVE = 3;

/** Enters the job while it is open: false once it closed (a message that arrived after the job ended is dropped). */
export function enterJob(ctrl: Int32Array): boolean {
  for (;;) {
    const a = Atomics.load(ctrl, ACTIVE);
    if (a < 0) return false;
    if (Atomics.compareExchange(ctrl, ACTIVE, a, a + 1) === a) return true;
  }
}

export function leaveJob(ctrl: Int32Array): void {
  Atomics.sub(ctrl, ACTIVE, 1);
}

export function aborted(ctrl: Int32Array): boolean {
  return Atomics.load(ctrl, ABORT) !== 0;
}

/**
 * Waits until slot `j` of a ring of `slots` is free (the hashing thread done with what it held before): false once
 * the job is aborted.
 */
export function awaitFreeSlot(ctrl: Int32Array, j: number, slots: number): boolean {
  let c: number;
  while (!aborted(ctrl) && j >= (c = Atomics.load(ctrl, CONSUMED)) + slots) Atomics.wait(ctrl, CONSUMED, c, 1000);
  return !aborted(ctrl);
}

/** The hashing thread is done with `consumed` slots: a reader waiting for one of them to be free goes on. */
export function markConsumed(ctrl: Int32Array, consumed: number): void {
  Atomics.store(ctrl, CONSUMED, consumed);
  Atomics.notify(ctrl, CONSUMED);
}

/**
 * Ends a job, done or stopped early: a reader waiting for a slot leaves; one whose message is still queued finds
 * the job closed when no reader is inside it.
 */
export function closeJob(ctrl: Int32Array): void {
  Atomics.store(ctrl, ABORT, 1);
  Atomics.compareExchange(ctrl, ACTIVE, 0, -1);
  Atomics.notify(ctrl, CONSUMED);
}
