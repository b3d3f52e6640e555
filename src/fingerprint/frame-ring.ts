import { ArtifactStage, type Planned } from './artifact-stage.ts';
import { ABORT, ACTIVE, closeJob, markConsumed } from './job-control.ts';
import { FRAMES_CONTROL_WORDS, LAST, META_FIELDS, PUBLISHED, STOP, type FramesJob } from './frame-job.ts';
import { readerThreads, readyReaderThread } from './reader-threads.ts';
import type { TreeFileAccess } from './tree-reader.ts';

/** The ring: 8 slots of 256 KiB, so at most 2 MiB is read ahead of the hash (and a slot stays in a 1 MiB L2). */
export const RING_SLOTS = 8;
export const RING_SLOT_BYTES = 256 * 1024;
/** How long the hashing thread waits for the reader to take the job up (busy with another tree's) before it reads
 * the tree itself. A reader's wake-up takes 0.05-1 ms, more on a busy machine. */
const ENTER_WAIT_MS = 50;
/** A reader inside the job that publishes nothing for this long is taken for dead (a terminated thread never
 * leaves the job): the hashing thread reads on from the last slot. */
const STALL_MS = 10_000;

/** Frames jobs of this process not yet ended: one at a time, so a second tree at once never waits for the reader. */
const openJobs = new Set<OpenFramesJob>();

/** A frames job handed to a reader thread, as the hashing thread follows it. */
export interface OpenFramesJob {
  job: FramesJob;
  ctrl: Int32Array;
  meta: Float64Array;
}

/**
 * Hands the tree from `planned[from]` on to a reader thread, the hashing thread having handed on `startAt` content
 * bytes of that file (of `startSize`), when a reader is ready and no other frames job is open; else undefined. Asked
 * at each large file of a tree until one takes it. The first tree of a process starts no reader thread: starting one
 * takes 30-40 ms of CPU on the core the thread pool's reads need, and a process that fingerprints once (the CLI)
 * measured slower with it (1 x 100 MiB: 148 ms against 133 ms, five runs each). A later tree starts one for the
 * trees after it.
 */
export function startFramesJob(
  planned: readonly Planned[],
  from: number,
  startAt: number,
  startSize: number,
): OpenFramesJob | undefined {
  const worker = readyReaderThread();
  if (worker === undefined) {
    firstTree ??= new WeakRef(planned);
    if (firstTree.deref() !== planned) readerThreads(1);
    return undefined;
  }
  if (openJobs.size > 0) return undefined;
  const open = framesJob(planned, from, startAt, startSize);
  worker.postMessage(open.job);
  openJobs.add(open);
  jobsStarted++;
  return open;
}

/** The plan of the first tree that asked for a reader thread (identity: a tree is planned once per stream), held
 * weakly: once it is gone, any tree is a later one. */
let firstTree: WeakRef<readonly Planned[]> | undefined;

let jobsStarted = 0;
let slotsFromReaders = 0;

/** Frames jobs handed to a reader thread so far in this process (the bench and the specs tell which path ran). */
export function framesJobsStarted(): number {
  return jobsStarted;
}

/** Ring slots a reader thread filled and the hashing thread used so far in this process (0 after jobs started: the
 * readers never came, and the hashing thread read those trees itself). */
export function framesSlotsFromReaders(): number {
  return slotsFromReaders;
}

/** A frames job for the tree from `planned[from]`, not yet handed to anyone (`slots`: the ring's, for specs). */
export function framesJob(
  planned: readonly Planned[],
  from: number,
  startAt: number,
  startSize: number,
  slots = RING_SLOTS,
): OpenFramesJob {
  const rest = planned.slice(from);
  const job: FramesJob = {
    kind: 'frames',
    ctrl: new SharedArrayBuffer(4 * FRAMES_CONTROL_WORDS),
    ring: new SharedArrayBuffer(slots * RING_SLOT_BYTES),
    meta: new SharedArrayBuffer(8 * META_FIELDS * slots),
    slots,
    slotBytes: RING_SLOT_BYTES,
    from,
    count: rest.length,
    refs: rest.map((p) => p.file.ref).join('\0'),
    paths: rest.map((p) => p.file.path).join('\0'),
    sizes: rest.some((p) => p.file.size >= 0) ? Float64Array.from(rest, (p) => p.file.size) : undefined,
    startAt,
    startSize,
  };
  return { job, ctrl: new Int32Array(job.ctrl), meta: new Float64Array(job.meta) };
}

/**
 * The rest of the OPWM1 stream from a frames job, after `lead` (what this thread hands on first: the first file's
 * header and bytes it read itself): each slot handed on as the reader publishes it (a view of the ring, valid until
 * the next step). A file the reader gave up, and the rest of the tree if the reader never takes
 * the job up or stops publishing, this thread reads itself through `stage`, as the sequential stream does: so a
 * missing file or one that changed size raises the same error with its path. Ends the job, stopped early too.
 */
export async function* framesFromRing(
  open: OpenFramesJob,
  access: TreeFileAccess,
  stage: ArtifactStage,
  planned: readonly Planned[],
  lead: readonly Uint8Array[] = [],
): AsyncGenerator<Uint8Array> {
  const { job, ctrl, meta } = open;
  // Where the stream stands: in this file, with this many content bytes handed on (-1: before its frame).
  let file = job.from;
  let at = job.startAt;
  let size = job.startSize;
  let h = 0;
  try {
    yield* lead;
    for (;;) {
      if (!awaitSlot(open, h)) {
        yield* here(access, stage, planned, file, at, size);
        for (let i = file + 1; i < planned.length; i++) yield* here(access, stage, planned, i, -1, 0);
        break;
      }
      const s = h % job.slots;
      const m = s * META_FIELDS;
      const len = meta[m]!;
      file = meta[m + 1]!;
      at = meta[m + 2]!;
      size = meta[m + 3]!;
      const flags = meta[m + 4]!;
      if (len > 0) {
        if (stage.holding) yield stage.take();
        stage.stats.bytes += len;
        yield new Uint8Array(job.ring, s * job.slotBytes, len);
      }
      markConsumed(ctrl, ++h);
      slotsFromReaders++;
      if (flags & LAST) break;
      if (flags & STOP) {
        yield* here(access, stage, planned, file, at, size);
        at = -1;
        file++;
      }
    }
    if (stage.holding) yield stage.take();
  } finally {
    endFramesJob(open);
  }
}

/**
 * Ends a job, done or stopped early (or never followed: its stream failed before it began): a reader waiting for a
 * slot leaves; one whose message is still queued finds the job closed when no reader is inside it.
 */
export function endFramesJob(open: OpenFramesJob): void {
  closeJob(open.ctrl);
  openJobs.delete(open);
}

/**
 * Waits for slot `h`. False when the reader will not bring it: it never took the job up within `ENTER_WAIT_MS`
 * (the job is then closed to it), it left without publishing the last slot, or it stalled `STALL_MS`.
 */
function awaitSlot({ ctrl }: OpenFramesJob, h: number): boolean {
  const start = performance.now();
  for (;;) {
    const published = Atomics.load(ctrl, PUBLISHED);
    if (published > h) return true;
    const waited = performance.now() - start;
    const inside = Atomics.load(ctrl, ACTIVE);
    if (inside === 0 && (published > 0 || waited >= ENTER_WAIT_MS)) {
      if (Atomics.compareExchange(ctrl, ACTIVE, 0, -1) === 0) return false;
      continue; // it entered just now
    }
    if (inside < 0 || waited >= STALL_MS) {
      Atomics.store(ctrl, ABORT, 1);
      return false;
    }
    Atomics.wait(ctrl, PUBLISHED, published, 10);
  }
}

/**
 * File `i` read on this thread from where the stream stands in it: whole (its frame not begun, `at` -1), or on
 * from `at` content bytes already handed on (of `size`, its frame header with them).
 */
function* here(
  access: TreeFileAccess,
  stage: ArtifactStage,
  planned: readonly Planned[],
  i: number,
  at: number,
  size: number,
): Generator<Uint8Array> {
  if (i >= planned.length) return;
  const entry = planned[i]!;
  if (at < 0) {
    const full = stage.flushFor(8 + entry.pathBytes.length);
    if (full) yield full;
    yield* stage.stageWhole(access, entry, i);
    return;
  }
  yield* stage.streamFrom(access, entry, at, size);
}
