import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Profile } from './bench-report.ts';

export interface WorkloadSpec {
  name: 'small' | 'medium' | 'large';
  description: string;
  /** Sub-directories, each holding `perDir` files of `fileBytes` bytes. */
  dirs: number;
  perDir: number;
  fileBytes: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** The workloads (full) and a small stand-in with the same shapes for CI and specs (quick). */
export const WORKLOADS: Record<Profile, WorkloadSpec[]> = {
  full: [
    { name: 'small', description: '10,000 x 1 KiB', dirs: 10, perDir: 1000, fileBytes: KiB },
    { name: 'medium', description: '100 x 1 MiB', dirs: 1, perDir: 100, fileBytes: MiB },
    { name: 'large', description: '1 x 100 MiB', dirs: 1, perDir: 1, fileBytes: 100 * MiB },
  ],
  quick: [
    { name: 'small', description: '500 x 1 KiB', dirs: 10, perDir: 50, fileBytes: KiB },
    { name: 'medium', description: '8 x 1 MiB', dirs: 1, perDir: 8, fileBytes: MiB },
    { name: 'large', description: '1 x 8 MiB', dirs: 1, perDir: 1, fileBytes: 8 * MiB },
  ],
};

export function fileCount(w: WorkloadSpec): number {
  return w.dirs * w.perDir;
}

/** 1 MiB of xorshift32 output from a fixed seed: the same bytes on every machine and run. */
function patternBlock(): Buffer {
  const out = Buffer.alloc(MiB);
  let x = 0x9e3779b9;
  for (let i = 0; i < MiB; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, i);
  }
  return out;
}

/**
 * Writes the workload under `root/<name>` and returns that directory. Each file is a distinct rotation of the
 * pattern (its index stamped in front), so no two files are equal and nothing compresses or dedups.
 */
export function generateWorkload(root: string, w: WorkloadSpec): string {
  const pattern = patternBlock();
  const top = join(root, w.name);
  let index = 0;
  for (let d = 0; d < w.dirs; d++) {
    const dir = w.dirs === 1 ? top : join(top, `d${String(d).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < w.perDir; f++, index++) {
      const fd = openSync(join(dir, `f${String(f).padStart(4, '0')}.bin`), 'w');
      try {
        writeRotated(fd, pattern, w.fileBytes, index);
      } finally {
        closeSync(fd);
      }
    }
  }
  return top;
}

function writeRotated(fd: number, pattern: Buffer, size: number, index: number): void {
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64LE(BigInt(index));
  let offset = (index * 4099) % pattern.length;
  let left = size;
  const first = Math.min(8, left);
  writeSync(fd, stamp, 0, first);
  left -= first;
  while (left > 0) {
    const n = Math.min(left, pattern.length - offset);
    writeSync(fd, pattern, offset, n);
    left -= n;
    offset = 0;
  }
}
