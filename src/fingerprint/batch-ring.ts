import type { Planned } from './artifact-stage.ts';
import { fillBatch, NEXT, READY, type BatchJob } from './batch-job.ts';
import { fsSyncCalls } from './fs-tree-reader.ts';
import { closeJob, markConsumed } from './job-control.ts';

/** What the parallel read did: how much it may hold at once, and how the batches were shared. */
export interface ParallelStats {
  workers: number;
  /** 2 x slots x slotBytes: the most file bytes held read ahead of the hash at any moment. */
  capBytes: number;
  batches: number;
  /** Batches a reader thread read and the hash used (the rest the hashing thread read itself). */
  workerBatches: number;
  /** Batches a reader still held when nothing was left to claim, read again by the hashing thread instead of
   * waiting (its copy unused). */
  stolen: number;
}

/** The shape of a batch job: files per batch, the ring's slots and their bytes; and the hashing thread's pace. */
export interface BatchShape {
  batchFiles: number;
  slotBytes: number;
  slots: number;
  /** With `waitMs` above 0: batches this thread reads per batch the readers supply before it waits for them. */
  mainShare: number;
  waitMs: number;
}

/** A batch in hand: its frames and, per file, the frame's length or -1 (left to the hashing thread). */
export interface Batch {
  slot: Uint8Array;
  table: Int32Array;
}

/**
 * The hashing thread's side of a batch job (`artifactChunksParallel`): the shared ring the readers fill, its own
 * ring (batch j in own[j % slots], which only this thread touches), and how it gets batch h in order: ready from a
 * reader, or read here, unclaimed or (with nothing left to claim) late.
 */
export class BatchRing {
  readonly batches: number;
  private readonly ctrl: Int32Array;
  private readonly job: BatchJob;
  private readonly refs: string[];
  private readonly paths: string[];
  private readonly own: { batch: number; slot: Buffer; table: Int32Array }[] = [];
  private waiting: boolean;
  private claimed = 0;

  constructor(
    planned: readonly Planned[],
    private readonly shape: BatchShape,
    private readonly ps: ParallelStats,
    workers: number,
  ) {
    const { batchFiles, slots, slotBytes } = shape;
    this.batches = Math.ceil(planned.length / batchFiles);
    this.refs = planned.map((p) => p.file.ref);
    this.paths = planned.map((p) => p.file.path);
    const sizes = planned.some((p) => p.file.size >= 0) ? Float64Array.from(planned, (p) => p.file.size) : undefined;
    const ctrl = new SharedArrayBuffer(4 * (READY + 2 * slots));
    const data = new SharedArrayBuffer(slots * slotBytes);
    const tables = new SharedArrayBuffer(4 * slots * batchFiles);
    this.ctrl = new Int32Array(ctrl);
    // refs and paths are joined only when a reader takes the job (`message`).
    this.job = {
      kind: 'batches',
      ctrl,
      data,
      tables,
      refs: '',
      paths: '',
      sizes,
      batches: this.batches,
      batchFiles,
      slots,
      slotBytes,
    };
    this.waiting = workers > 0 && shape.waitMs > 0;
    Object.assign(ps, { workers, capBytes: 2 * slots * slotBytes, batches: this.batches, workerBatches: 0, stolen: 0 });
  }

  /** The job as the reader threads receive it. */
  message(): BatchJob {
    return { ...this.job, refs: this.refs.join('\0'), paths: this.paths.join('\0') };
  }

  /**
   * Batch h, once ready. Not ready and nobody claimed it: read here. A reader holds it: read the next unclaimed
   * batch here meanwhile while this thread's share allows, else wait for the reader; and with nothing left to
   * claim, read h again rather than wait for the reader holding it.
   */
  take(h: number): Batch {
    const { slots, mainShare, waitMs } = this.shape;
    const s = h % slots;
    const ctrl = this.ctrl;
    for (;;) {
      const ready = Atomics.load(ctrl, READY + s);
      if (this.own[s]?.batch === h || ready === h + 1) break;
      const j = Atomics.load(ctrl, NEXT);
      if (
        j < this.batches &&
        j < h + slots &&
        (j === h || !this.waiting || this.claimed < mainShare * (this.ps.workerBatches + 1))
      ) {
        if (Atomics.compareExchange(ctrl, NEXT, j, j + 1) === j) {
          this.fillHere(j);
          this.claimed++;
        }
        continue;
      }
      if (this.waiting) {
        if (Atomics.wait(ctrl, READY + s, ready, waitMs) === 'timed-out') this.waiting = false;
        continue;
      }
      this.fillHere(h);
      this.ps.stolen++;
    }
    const mine = this.own[s];
    if (mine?.batch === h) return mine;
    this.ps.workerBatches++;
    const { slotBytes, batchFiles } = this.shape;
    return {
      slot: new Uint8Array(this.job.data, s * slotBytes, slotBytes),
      table: new Int32Array(this.job.tables, s * batchFiles * 4, batchFiles),
    };
  }

  /** The hash is done with batch h: its slot is free for batch h + slots. */
  done(h: number): void {
    markConsumed(this.ctrl, h + 1);
  }

  /** Done or stopped early: readers waiting for a slot (or for its busy flag) or about to claim one leave. */
  close(): void {
    closeJob(this.ctrl);
    for (let k = 0; k < this.shape.slots; k++) Atomics.notify(this.ctrl, READY + this.shape.slots + k);
  }

  private fillHere(j: number): void {
    const { slots, slotBytes, batchFiles } = this.shape;
    const k = j % slots;
    const mine = (this.own[k] ??= {
      batch: -1,
      slot: Buffer.allocUnsafe(slotBytes),
      table: new Int32Array(batchFiles),
    });
    const first = j * batchFiles;
    const end = Math.min(this.refs.length, first + batchFiles);
    fillBatch(fsSyncCalls, this.refs, this.paths, this.job.sizes, first, end, mine.slot, mine.table);
    mine.batch = j;
  }
}
