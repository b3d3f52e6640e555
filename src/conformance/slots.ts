/** What a unit of the run does where: see `Slots`. */
export type UnitKind = 'timed' | 'in-process' | 'elsewhere';

/**
 * A counting semaphore: `take(n, kind)` waits until n slots are free (n may be a half) and the kind rules below let
 * the unit in; waiters are served in the order they came, except that a waiter held back only by its kind lets those
 * behind it pass (with one job that never happens: a held-back waiter means the one slot is taken).
 *
 * Kinds keep cases that time worker processes (a kill's seeded wait, a writer's ready timeout, both measured on this
 * process's event loop) from sharing that loop with cases that compute in it (hashing, parsing, WASM SQLite): under
 * load such a case held the loop for long enough that a crash worker's ready timed out. Worker cases still run beside
 * each other: their own work here is a few milliseconds per kill. Cases run in a case worker (`elsewhere`) compute
 * there and conflict with neither kind.
 *
 * While case-worker units are still to start (`announce`d and not yet in), timed units take at most all slots but
 * one, so the computing cases run beside the crash and concurrency cases, whose workers wait on locks and on the next
 * worker's start-up. Queued behind every timed case, they ran last, one core idle: 30 s of a full run on 2 cores.
 */
export class Slots {
  private free: number;
  private readonly running: Record<UnitKind, number> = { timed: 0, 'in-process': 0, elsewhere: 0 };
  /** Slots the timed units hold (a concurrency case holds half of one). */
  private timedSlots = 0;
  /** Case-worker units announced and not yet in. */
  private elsewhereToStart = 0;
  private readonly queue: { n: number; kind: UnitKind; go: () => void }[] = [];

  constructor(private readonly size: number) {
    this.free = size;
  }

  /** Tells the slots that a case-worker unit will ask for a slot (before it does). */
  announceElsewhere(): void {
    this.elsewhereToStart += 1;
  }

  async take(n: number, kind: UnitKind = 'in-process'): Promise<void> {
    const granted = new Promise<void>((go) => this.queue.push({ n, kind, go }));
    this.serve();
    await granted;
  }

  give(n: number, kind: UnitKind = 'in-process'): void {
    this.free += n;
    this.running[kind] -= 1;
    if (kind === 'timed') this.timedSlots -= n;
    this.serve();
  }

  private serve(): void {
    for (let i = 0; i < this.queue.length && this.free > 0;) {
      const next = this.queue[i]!;
      if (!this.kindFits(next.kind, next.n)) {
        i++;
        continue;
      }
      if (this.free < next.n) break; // the slots are owed to this waiter first
      this.queue.splice(i, 1);
      this.free -= next.n;
      this.running[next.kind] += 1;
      if (next.kind === 'timed') this.timedSlots += next.n;
      if (next.kind === 'elsewhere' && this.elsewhereToStart > 0) this.elsewhereToStart -= 1;
      next.go();
    }
  }

  private kindFits(kind: UnitKind, n: number): boolean {
    if (kind === 'elsewhere') return true;
    if (this.running[kind === 'timed' ? 'in-process' : 'timed'] !== 0) return false;
    return kind === 'in-process' || this.elsewhereToStart === 0 || this.timedSlots + n <= Math.max(1, this.size - 1);
  }
}
