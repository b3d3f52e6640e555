import { ArtifactStage, type Overflow, type Planned, type StreamStats } from './artifact-stage.ts';
import { artifactChunks, DEFAULT_BUFFER_BYTES } from './artifact-stream.ts';
import { endFramesJob, framesFromRing, type OpenFramesJob } from './frame-ring.ts';
import type { TreeFileAccess, TreeReader } from './tree-reader.ts';

/**
 * A file longer than this has the rest read off the main thread. Below it the thread-pool hop (tens of
 * microseconds) costs about what the overlap saves, so small files stay on the sync path of `artifactChunks`.
 */
export const ASYNC_FROM_BYTES = 64 * 1024;

const ignore = (): void => {};

/**
 * Hands the tree from file `from` on to a reader thread (`startFramesJob`), this thread having handed on `startAt`
 * content bytes of it (of `startSize`); undefined when none can take it.
 */
export type ReadAhead = (
  planned: readonly Planned[],
  from: number,
  startAt: number,
  startSize: number,
) => OpenFramesJob | undefined;

/**
 * The OPWM1 stream of `artifactChunks`, byte for byte, with large files' reading taken off this thread so that
 * reading and hashing overlap instead of adding up, which is what puts a fingerprint under (read time + hash
 * time). At a large file, when `overlap()` (asked at the first) says a core is free: `ahead` (when given) hands it
 * and the rest of the tree to a reader thread, which reads ahead into a ring; without it, or while no reader can
 * take it, each large file is double-buffered: its next part read on libuv's thread pool into a second buffer while the
 * consumer hashes the chunk just yielded. Bounded memory either way (the ring; two buffers of `bufferBytes`). A
 * reader without `readIntoAsync` gets the sync stream, and so does every large file when `overlap()` says no: a
 * thread that has no free core to run on makes this one wait, which costs more than reading here (docs/bench.md).
 */
export async function* artifactChunksAsync(
  reader: TreeReader,
  planned: readonly Planned[],
  stats: StreamStats,
  bufferBytes = DEFAULT_BUFFER_BYTES,
  overlap: () => boolean = always,
  ahead?: ReadAhead,
): AsyncGenerator<Uint8Array> {
  const access = reader.access;
  if (access?.readIntoAsync === undefined) {
    yield* artifactChunks(reader, planned, stats, bufferBytes);
    return;
  }
  const stage = new ArtifactStage(planned.length, stats, bufferBytes);
  const spare: Spare = {};
  // Asked when the first large file comes, once: a tree of small files never pays for the question.
  let pool: boolean | undefined;
  for (let i = 0; i < planned.length; i++) {
    const entry = planned[i]!;
    const full = stage.flushFor(8 + entry.pathBytes.length);
    if (full) yield full;
    const open = stageStart(access, stage, entry, i);
    if (!open) continue;
    let ring: OpenFramesJob | undefined;
    try {
      pool ??= overlap();
      if (pool) ring = ahead?.(planned, i, open.ov.read, open.ov.size);
      if (ring) access.close(open.handle); // the reader thread opens the file itself
    } catch (e) {
      if (ring) endFramesJob(ring);
      else access.close(open.handle);
      throw e;
    }
    if (ring) {
      stats.bytes += 8 + entry.pathBytes.length + open.ov.read;
      yield* framesFromRing(ring, access, stage, planned, open.ov.out);
      return;
    }
    if (pool) yield* streamRestAsync(access, stage, entry, open, spare);
    else yield* streamRestSync(access, stage, entry, open);
  }
  if (stage.holding) yield stage.take();
}

const always = (): boolean => true;

/** The rest of a file `stageStart` left open, read on this thread (no free core for the pool to use); closed. */
function* streamRestSync(
  access: TreeFileAccess,
  stage: ArtifactStage,
  entry: Planned,
  { handle, ov }: OpenRest,
): Generator<Uint8Array> {
  try {
    yield* stage.streamRest(access, handle, entry, ov);
  } finally {
    access.close(handle);
  }
}

/** The second buffer, allocated by the first file that needs it and kept for the next, and how the pool's reads go. */
export interface Spare {
  buf?: Uint8Array;
  pace?: PoolPace;
}

/** Parts read on the pool before the pace may call them a loss: fewer say too little about the waits. */
const PROBE_PARTS = 8;
/** Waiting this share of the time for parts read on the pool is a loss: a read done on this thread costs less. */
const LOSING_WAIT_SHARE = 0.1;
/** For this long after a stream found the pool a loss, later streams read on this thread from their start. */
const REMEMBER_LOSS_MS = 10_000;

/** When a stream last found the pool's reads a loss; kept across streams, so a repeated caller probes once a while. */
export class PoolMemory {
  lostAt = -Infinity;

  /** Forgets a loss (specs start from a clean slate). */
  forget(): void {
    this.lostAt = -Infinity;
  }
}

export const poolMemory = new PoolMemory();

/**
 * How a stream's reads on the thread pool pay. A part read there should be ready by the time the part before is
 * hashed (a read costs a fifth of a hash here); when this thread still waits for them (on a virtual machine whose
 * idle core must first be woken by the host: measured 1.4x the limit on 1 x 100 MiB, against 1.07x reading here),
 * the rest of the stream is read on this thread (`local`), and so are the streams of the next 10 s.
 */
export class PoolPace {
  local: boolean;
  /** Made as the stream's first part is about to be read: the time the waits are a share of runs from here. */
  private readonly start = performance.now();
  private waitedMs = 0;
  private parts = 0;

  constructor(private readonly memory: PoolMemory = poolMemory) {
    this.local = this.start - memory.lostAt < REMEMBER_LOSS_MS;
  }

  /** A part was awaited for `waitedMs`, up to `now`. */
  settled(waitedMs: number, now: number): void {
    this.waitedMs += waitedMs;
    if (++this.parts >= PROBE_PARTS && this.waitedMs > LOSING_WAIT_SHARE * (now - this.start)) {
      this.local = true;
      this.memory.lostAt = now;
    }
  }
}

/** A file open past its first `ASYNC_FROM_BYTES`: its handle and where its reading stands. */
export interface OpenRest {
  handle: number;
  ov: Overflow;
}

/**
 * Opens a file and stages it if it ends within `ASYNC_FROM_BYTES` (closed then: undefined), else returns it open
 * for `streamRestAsync`. Sync, so a small file costs no generator and no promise.
 */
export function stageStart(
  access: TreeFileAccess,
  stage: ArtifactStage,
  entry: Planned,
  i: number,
): OpenRest | undefined {
  const handle = access.open(entry.file);
  let ov: Overflow | undefined;
  try {
    ov = stage.stageFile(access, handle, entry, i, ASYNC_FROM_BYTES);
  } finally {
    if (ov === undefined) access.close(handle);
  }
  return ov && { handle, ov };
}

/**
 * The rest of a file `stageStart` left open, read on the thread pool into `spare` while the part before is handed
 * on (the two buffers then swap), or on this thread once the pace found the pool a loss; checked against its size;
 * closed.
 */
export async function* streamRestAsync(
  access: TreeFileAccess,
  stage: ArtifactStage,
  entry: Planned,
  { handle, ov }: OpenRest,
  spare: Spare,
): AsyncGenerator<Uint8Array> {
  let inflight: Promise<number> | undefined;
  const pace = (spare.pace ??= new PoolPace());
  try {
    for (;;) {
      if (pace.local) {
        // The rest as the sync stream reads it: through the one staging buffer, which stays in this core's cache.
        yield* stage.streamRest(access, handle, entry, ov);
        return;
      }
      const into = (spare.buf ??= new Uint8Array(stage.size));
      inflight = access.readIntoAsync!(handle, into, 0, into.length);
      inflight.catch(ignore); // awaited below; not an unhandled rejection while the consumer holds a chunk
      for (const chunk of ov.out) yield chunk;
      const t = performance.now();
      const n = await inflight;
      const now = performance.now();
      pace.settled(now - t, now);
      inflight = undefined;
      // The part just read is now the stage; the buffer the consumer is done with is the next spare.
      spare.buf = stage.swap(into);
      if (!stage.nextPart(ov, entry, n)) break;
    }
    stage.finish(entry, ov.size, ov.read);
  } finally {
    // Never close a descriptor a pool thread is still reading (the consumer may stop early).
    if (inflight) await inflight.catch(ignore);
    access.close(handle);
  }
}
