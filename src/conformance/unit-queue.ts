import { Slots, type UnitKind } from './slots.ts';

/**
 * Starts units of a run (cases, probes) when slots are free, in the order queued, so --jobs 1 is the sequential run.
 * It remembers the first failed or errored case in sequential order, of the run (--bail) and of each backend
 * (selftest's stopAtFirstFailure): cases after it are not started, so --jobs 1 runs exactly what the sequential loop ran.
 */
export class UnitQueue {
  private firstBad = Infinity;
  private readonly firstBadOf = new Map<number, number>();
  private readonly inFlight: Promise<unknown>[] = [];

  constructor(
    private readonly slots: Slots,
    private readonly jobs: number,
    /** Per backend, a lane of one where its cases may not run at once (a plugin), else undefined. */
    private readonly lanes: readonly (Slots | undefined)[],
    private readonly caseCount: number,
    private readonly stops: {
      bail?: boolean;
      stopAtFirstFailure?: boolean;
      deadline?: { passed: boolean } | undefined;
    },
  ) {}

  private skipped(f: number, n: number): boolean {
    return (
      !!this.stops.deadline?.passed ||
      (!!this.stops.bail && f * this.caseCount + n > this.firstBad) ||
      (!!this.stops.stopAtFirstFailure && n > (this.firstBadOf.get(f) ?? Infinity))
    );
  }

  /** Starts `work` (case `n` of backend `f`, taking `weight` slots of `kind`) when slots are free. */
  start<T>(f: number, n: number, weight: number, kind: UnitKind, work: () => Promise<T>): Promise<T | undefined> {
    const p = (async () => {
      const lane = this.lanes[f];
      await lane?.take(1);
      await this.slots.take(Math.min(weight, this.jobs), kind);
      try {
        if (this.skipped(f, n)) return undefined;
        const r = await work();
        const status = (r as { outcome?: { status: string } }).outcome?.status;
        if (status === 'failed' || status === 'errored') {
          this.firstBad = Math.min(this.firstBad, f * this.caseCount + n);
          this.firstBadOf.set(f, Math.min(this.firstBadOf.get(f) ?? Infinity, n));
        }
        return r;
      } finally {
        this.slots.give(Math.min(weight, this.jobs), kind);
        lane?.give(1);
      }
    })();
    // Told in order later; until then a rejection (a probe that throws) must not count as unhandled.
    p.catch(() => undefined);
    this.inFlight.push(p);
    return p;
  }

  /** A run that stops early (an error thrown) starts nothing more; units still running finish first. */
  async drain(): Promise<void> {
    this.firstBad = -Infinity;
    await Promise.allSettled(this.inFlight);
  }
}
