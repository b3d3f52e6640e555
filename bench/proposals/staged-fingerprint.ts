// PROPOSAL for src/canon (owned by the canon helper; not used by the product). Run:
//   node --import tsx bench/proposals/staged-fingerprint.ts [small|medium|large]
// It checks that the address equals fingerprintDirectory's, then times both against the bench's limit.
//
// Why: a profile of fingerprintDirectory on 10,000 x 1 KiB files spends ~12% in lstat (one per file, in list()),
// ~7% in the second read() that only confirms EOF, and ~15% in per-file JS (generator steps, a header allocation,
// three hash.update calls). Here each file costs open + read + close, like the read-only walk: the frame header is
// written into a 1 MiB staging buffer and the file is read right after it; a short read is EOF, so its length is
// the size. One hash.update per ~1 MiB. Files that do not fit take fstat + streamed reads (the current path).
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintDirectory } from '../../src/canon/index.ts';
import { loadTree, rawHash, readOnlyWalk } from '../../src/bench/limit-tasks.ts';
import { median } from '../../src/bench/measure.ts';
import { generateWorkload, WORKLOADS } from '../../src/bench/workloads.ts';

interface Entry { abs: string; key: Buffer }
const STAGE = 1 << 20;

function list(dir: string, rel: string, out: Entry[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = `${dir}/${e.name}`;
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) list(abs, path, out);
    else if (e.isFile()) out.push({ abs, key: Buffer.from(path) });
    else throw new Error(`${path}: not a regular file`); // the real reader keeps its refusals and UTF-8 checks
  }
}

export function stagedFingerprint(dir: string): string {
  const files: Entry[] = [];
  list(dir, '', files);
  files.sort((a, b) => Buffer.compare(a.key, b.key));
  const hash = createHash('sha256');
  const stage = Buffer.allocUnsafe(STAGE);
  stage.write('OPWM1', 0, 'latin1');
  stage.writeUInt32LE(files.length, 5);
  let pos = 9;
  for (const f of files) {
    const head = 8 + f.key.length;
    if (pos + head + 4096 > STAGE) {
      hash.update(stage.subarray(0, pos));
      pos = 0;
    }
    const fd = openSync(f.abs, 'r');
    try {
      const room = STAGE - pos - head;
      const got = readSync(fd, stage, pos + head, room, null);
      if (got < room) {
        // Short read: EOF, and `got` is the size. Header goes in front of the bytes already in place.
        writeHeader(stage, pos, f.key, got);
        pos += head + got;
        continue;
      }
      const size = fstatSync(fd).size;
      hash.update(stage.subarray(0, pos));
      const header = Buffer.allocUnsafe(head);
      writeHeader(header, 0, f.key, size);
      hash.update(header);
      hash.update(stage.subarray(pos + head, pos + head + got));
      pos = 0;
      let read = got;
      for (let n = readSync(fd, stage, 0, STAGE, null); n > 0; n = readSync(fd, stage, 0, STAGE, null)) {
        read += n;
        hash.update(stage.subarray(0, n));
      }
      if (read !== size) throw new Error(`${f.abs} changed size while being read`);
    } finally {
      closeSync(fd);
    }
  }
  hash.update(stage.subarray(0, pos));
  return `sha256:${hash.digest('hex')}`;
}

function writeHeader(buf: Buffer, at: number, key: Buffer, size: number): void {
  buf.writeUInt32LE(key.length, at);
  key.copy(buf, at + 4);
  buf.writeUInt32LE(size, at + 4 + key.length);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const name = process.argv[2] ?? 'small';
  const spec = WORKLOADS.full.find((w) => w.name === name);
  if (!spec) throw new Error(`unknown workload ${name}`);
  const root = mkdtempSync(join(tmpdir(), 'staged-fp-'));
  try {
    const dir = generateWorkload(root, spec);
    if (stagedFingerprint(dir) !== fingerprintDirectory(dir).address) throw new Error('the staged fingerprint differs');
    const buf = new Uint8Array(STAGE);
    const data = loadTree(dir);
    const times: Record<string, number[]> = { current: [], staged: [], walk: [], hash: [] };
    const time = (k: string, fn: () => unknown) => { const t0 = performance.now(); fn(); times[k]!.push(performance.now() - t0); };
    for (let i = 0; i < 15; i++) {
      time('current', () => fingerprintDirectory(dir));
      time('staged', () => stagedFingerprint(dir));
      time('walk', () => readOnlyWalk(dir, buf));
      time('hash', () => rawHash(data));
    }
    const limit = median(times.walk!) + median(times.hash!);
    for (const k of ['current', 'staged']) console.log(`${spec.description}: ${k} ${median(times[k]!).toFixed(1)} ms = ${(median(times[k]!) / limit).toFixed(2)}x the limit (${limit.toFixed(1)} ms)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
