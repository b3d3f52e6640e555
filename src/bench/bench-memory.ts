import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fingerprintDirectoryAsync } from '../fingerprint/index.ts';
import type { MemoryResult, Skipped } from './bench-report.ts';

/** What a peak-memory probe prints: one JSON line. */
export interface RssProbe {
  address: string;
  files: number;
  maxRssKiB: number;
}

/** Body of the hidden `bench --rss-probe DIR`: fingerprint DIR (as the bench times it) in a fresh process and report the peak RSS. */
export async function rssProbe(dir: string, parallel = false): Promise<RssProbe> {
  const { address, files } = await fingerprintDirectoryAsync(dir, parallel ? { parallel: true } : {});
  return { address, files, maxRssKiB: peakRssKiB() };
}

/**
 * The peak RSS of this process image. Linux's VmHWM, not getrusage's maxrss: maxrss survives fork+exec, so a child
 * of a big parent reports the parent's peak (the first version of this bench showed 270 MiB for every tree).
 */
function peakRssKiB(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

/** Peak RSS may grow by at most this much over an empty tree, whatever the tree's size (streaming, no artifact). */
export const MEMORY_BOUND_MIB = 64;

export interface MemoryTree {
  name: string;
  dir: string;
  files: number;
  bytes: number;
  /** Fingerprint with the parallel reader forced (its ring of read-ahead is what grows). */
  parallel?: boolean;
}

/**
 * Runs the probe in a child process (so nothing of the benchmark's own heap counts) on an empty tree and on
 * growing trees, and reports each peak and its growth over the empty one.
 */
export function benchMemory(
  trees: readonly MemoryTree[],
  emptyDir: string,
  self: readonly string[] | undefined,
  env: Record<string, string | undefined>,
): { trees: MemoryResult[]; boundMiB: number; bounded: boolean } | Skipped {
  if (!self) return { skipped: 'cannot start a child of this CLI (unknown entry point)' };
  const probe = (dir: string, parallel = false): RssProbe => {
    const r = spawnSync(
      self[0]!,
      [...self.slice(1), 'bench', '--rss-probe', dir, ...(parallel ? ['--rss-parallel'] : [])],
      {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    if (r.status !== 0)
      throw new Error(`rss probe on ${dir} exited ${r.status}: ${r.stderr.trim() || r.error?.message}`);
    return JSON.parse(r.stdout) as RssProbe;
  };
  // The first child pays cold caches (tsx's compile cache, the page cache of the binary): warm up, then measure.
  probe(emptyDir);
  const base = probe(emptyDir).maxRssKiB;
  const results: MemoryResult[] = trees.map((t) => {
    const peak = probe(t.dir, t.parallel).maxRssKiB;
    return {
      tree: t.name,
      files: t.files,
      bytes: t.bytes,
      peakRssMiB: peak / 1024,
      growthMiB: Math.max(0, peak - base) / 1024,
    };
  });
  results.unshift({ tree: 'empty', files: 0, bytes: 0, peakRssMiB: base / 1024, growthMiB: 0 });
  return { trees: results, boundMiB: MEMORY_BOUND_MIB, bounded: results.every((r) => r.growthMiB <= MEMORY_BOUND_MIB) };
}
