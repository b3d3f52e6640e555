import { spawnSync } from 'node:child_process';
import type { Skipped, StartupResult } from './bench-report.ts';
import { median } from './measure.ts';

/**
 * `prose-state --version` of the built binary against `node -e 0`, alternating one run of each so that load
 * changes hit both alike; medians of wall time per process (spawn to exit).
 */
export function benchStartup(
  binary: string | undefined,
  node: string | undefined,
  runs: number,
): StartupResult | Skipped {
  if (!binary) return { skipped: 'no built binary (run npm run build, or give --binary PATH)' };
  if (!node) return { skipped: 'no node to compare with (not on PATH)' };
  const time = (cmd: string, args: string[]): number => {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: {} });
    const ms = performance.now() - t0;
    if (r.status !== 0)
      throw new Error(
        `${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr?.toString().trim() || r.error?.message}`,
      );
    return ms;
  };
  const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const binaryNodeVersion = embeddedNode(binary);
  // One untimed run each warms the page cache.
  time(binary, ['--version']);
  time(node, ['-e', '0']);
  const b: number[] = [];
  const n: number[] = [];
  for (let i = 0; i < runs; i++) {
    b.push(time(binary, ['--version']));
    n.push(time(node, ['-e', '0']));
  }
  const binaryMs = median(b);
  const nodeMs = median(n);
  return {
    binary,
    node,
    nodeVersion,
    binaryNodeVersion,
    comparable: binaryNodeVersion === nodeVersion,
    runs,
    binaryMs,
    nodeMs,
    ratio: binaryMs / nodeMs,
  };
}

function embeddedNode(binary: string): string {
  const r = spawnSync(binary, ['--version', '--json'], { encoding: 'utf8', env: {} });
  try {
    const v = (JSON.parse(r.stdout) as { node?: unknown }).node;
    return typeof v === 'string' ? v : 'unknown';
  } catch {
    return 'unknown';
  }
}
