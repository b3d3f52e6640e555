import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ArtifactStage, type Planned, type StreamStats } from '../../src/fingerprint/artifact-stage.ts';
import { artifactChunksAsync, type ReadAhead } from '../../src/fingerprint/artifact-stream-async.ts';
import { fillFrames, type FrameFsCalls } from '../../src/fingerprint/frame-job.ts';
import { framesFromRing, framesJob, startFramesJob, type OpenFramesJob } from '../../src/fingerprint/frame-ring.ts';
import {
  artifactChunks,
  fingerprintDirectory,
  fsTreeReader,
  framesJobsStarted,
  planTree,
  readyReaderThreads,
  serializeDirectoryTo,
} from '../../src/fingerprint/index.ts';

const realFs: FrameFsCalls = fs;

/** Bytes that differ from offset to offset, so a part in the wrong place changes the stream. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed * 7 + (i >>> 8)) & 255;
  return out;
}

/**
 * Small files, an empty one, a file a slot cannot hold (600 KiB: three slots), one that ends exactly on a slot,
 * and one whose path is longer than a slot's header room allows after another file.
 */
function makeTree(): string {
  const dir = fs.mkdtempSync(join(tmpdir(), 'prose-state-frames-'));
  const files: Record<string, number> = {
    'a.txt': 10,
    'b/empty': 0,
    'b/large.bin': 600 * 1024,
    'c/exact.bin': 256 * 1024 - 8 - 'c/exact.bin'.length,
    [`d/${'n'.repeat(200)}.txt`]: 3000,
    'e.txt': 1,
  };
  let seed = 0;
  for (const [p, n] of Object.entries(files)) {
    fs.mkdirSync(join(dir, p, '..'), { recursive: true });
    fs.writeFileSync(join(dir, p), bytes(n, seed++));
  }
  return dir;
}

/** Runs `fn` over a fresh tree and its plan, then removes the tree. */
async function withTree(fn: (dir: string, planned: Planned[]) => Promise<void>): Promise<void> {
  const dir = makeTree();
  try {
    await fn(dir, planTree(fsTreeReader, dir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function sequential(planned: readonly Planned[]): Buffer {
  return Buffer.concat([...artifactChunks(fsTreeReader, planned, { files: 0, bytes: 0 })].map((c) => Buffer.from(c)));
}

/** The stream a job gives, read here after `fillFrames` ran on this thread (the ring big enough for the tree). */
async function drain(open: OpenFramesJob, planned: readonly Planned[], stats: StreamStats): Promise<Buffer> {
  const parts: Buffer[] = [];
  const stage = new ArtifactStage(planned.length, stats, 1 << 20);
  for await (const c of framesFromRing(open, fsTreeReader.access!, stage, planned)) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** The error draining a job raises; `why` is the failure when it raises none. */
function drainError(open: OpenFramesJob, planned: readonly Planned[], why: string): Promise<Error> {
  return drain(open, planned, { files: 0, bytes: 0 }).then(
    () => assert.unreachable(why) as never,
    (e: Error) => e,
  );
}

test('a frames job gives the sequential stream byte for byte, and counts it', () =>
  withTree(async (dir, planned) => {
    const open = framesJob(planned, 0, -1, 0, 16);
    fillFrames(realFs, open.job);
    const stats = { files: 0, bytes: 0 };
    const got = await drain(open, planned, stats);
    const want = sequential(planned);
    assert.ok(got.equals(want));
    assert.equal(stats, { files: planned.length, bytes: want.length });
  }));

test('a file the reader cannot open is read by the hashing thread; one that went away raises its error', () =>
  withTree(async (dir, planned) => {
    const flaky: FrameFsCalls = {
      ...realFs,
      openSync: (p, f) => {
        if (p.endsWith('large.bin')) throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
        return realFs.openSync(p, f);
      },
    };
    const open = framesJob(planned, 0, -1, 0, 16);
    fillFrames(flaky, open.job);
    assert.ok((await drain(open, planned, { files: 0, bytes: 0 })).equals(sequential(planned)));

    fs.rmSync(join(dir, 'b/large.bin'));
    let want: unknown;
    try {
      sequential(planned);
    } catch (e) {
      want = e;
    }
    assert.instance(want, Error);
    const gone = framesJob(planned, 0, -1, 0, 16);
    fillFrames(realFs, gone.job);
    const e = await drainError(gone, planned, 'a file gone since the listing must fail');
    assert.is(e.message, (want as Error).message);
  }));

test('a file that changed size under the reader is given up where it stands: the hashing thread raises E_IO', () =>
  withTree(async (dir, planned) => {
    // The size taken at open is 1,000 bytes short, as if the file grew between fstat and read.
    const lying: FrameFsCalls = {
      ...realFs,
      fstatSync: (fd) => ({ size: realFs.fstatSync(fd).size - (realFs.fstatSync(fd).size > 500_000 ? 1000 : 0) }),
    };
    const open = framesJob(planned, 0, -1, 0, 16);
    fillFrames(lying, open.job);
    const e = await drainError(open, planned, 'a grown file must fail');
    assert.is((e as { code?: string }).code, 'E_IO');
    assert.match(e.message, /b\/large\.bin changed size while being read \(613400 at open, \d+\+ read\)/);
  }));

test('a job no reader takes up is read by the hashing thread, from where the stream stands', () =>
  withTree(async (dir, planned) => {
    // Nobody fills it: after the wait for a reader, this thread reads the whole tree itself.
    assert.ok((await drain(framesJob(planned, 0, -1, 0), planned, { files: 0, bytes: 0 })).equals(sequential(planned)));
  }));

/** The stream of `artifactChunksAsync` with `ahead` in place of a reader thread, collected. */
async function handedOver(planned: readonly Planned[], ahead: ReadAhead, bufferBytes = 1 << 20): Promise<Buffer> {
  const parts: Buffer[] = [];
  const stats = { files: 0, bytes: 0 };
  for await (const c of artifactChunksAsync(fsTreeReader, planned, stats, bufferBytes, () => true, ahead))
    parts.push(Buffer.from(c));
  const out = Buffer.concat(parts);
  assert.equal(stats, { files: planned.length, bytes: out.length });
  return out;
}

test('handed over inside the first large file: the reader starts at the offset this thread reached', () =>
  withTree(async (_dir, planned) => {
    let from = -1;
    const got = await handedOver(planned, (p, f, at, size) => {
      from = f;
      assert.is(at, 64 * 1024); // this thread staged the file's first 64 KiB
      const open = framesJob(p, f, at, size, 16);
      fillFrames(realFs, open.job);
      return open;
    });
    assert.is(planned[from]!.file.path, 'b/large.bin');
    assert.ok(got.equals(sequential(planned)));
  }));

test('handed over, and no reader takes the job: this thread reads on from that offset', () =>
  withTree(async (_dir, planned) => {
    const got = await handedOver(planned, (p, f, at, size) => framesJob(p, f, at, size));
    assert.ok(got.equals(sequential(planned)));
  }));

/** Waits (on the event loop) until a reader thread has started; a frames job needs a ready one. */
async function readerReady(): Promise<void> {
  for (let i = 0; i < 500 && readyReaderThreads() === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(readyReaderThreads() > 0, 'a reader thread started within 5 s');
}

test('on a reader thread: the stream handed over at the first large file, stopped early, then the next tree', () =>
  withTree(async (dir, planned) => {
    const want = sequential(planned);
    // Each stream plans the tree afresh, as each call of fingerprintDirectoryAsync does.
    const stream = (): AsyncGenerator<Uint8Array> =>
      artifactChunksAsync(
        fsTreeReader,
        planTree(fsTreeReader, dir),
        { files: 0, bytes: 0 },
        1 << 20,
        () => true,
        startFramesJob,
      );
    // In a fresh process the first tree reads on the thread pool and starts no reader thread; the second starts one
    // (other spec files in this process may have started it already).
    for await (const _ of stream());
    for await (const _ of stream());
    await readerReady();
    const before = framesJobsStarted();
    // A consumer that stops at the third chunk ends the job ...
    let n = 0;
    for await (const _ of stream()) if (++n === 3) break;
    // ... so the next tree has the reader again, and gets the same bytes.
    const parts: Buffer[] = [];
    for await (const c of stream()) parts.push(Buffer.from(c));
    assert.ok(Buffer.concat(parts).equals(want));
    assert.is(framesJobsStarted(), before + 2);
    // And through the public path: a sink that fails mid-way loses nothing of the next call.
    const failing = {
      write: (): never => {
        throw new Error('disk full');
      },
    };
    await serializeDirectoryTo(dir, failing).then(
      () => assert.unreachable('the sink failed'),
      (e: Error) => assert.is(e.message, 'disk full'),
    );
    assert.is((await serializeDirectoryTo(dir, { write: () => true })).address, fingerprintDirectory(dir).address);
  }));

test.run();
