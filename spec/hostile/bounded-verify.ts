import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import type { VerifyResult } from '../../src/verify/registry.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * verifyPath in a child process with a time and memory bound, for the probes that hang or exhaust memory on a
 * verifier that follows links or opens FIFOs: the spec fails rather than hangs.
 */
export function boundedVerify(path: string, kind?: string): VerifyResult | { failed: string } | { error: string } {
  const code =
    `import('./src/verify/registry.ts').then((m) => m.verifyPath(process.argv[1], JSON.parse(process.argv[2])))` +
    `.then((r) => r, (e) => ({ error: e.code })).then((r) => process.stdout.write(JSON.stringify(r)))`;
  const opts = JSON.stringify(kind === undefined ? {} : { kind });
  const r = spawnSync(
    'sh',
    ['-c', 'ulimit -v 4000000; exec "$0" "$@"', process.execPath, '--import', 'tsx', '-e', code, path, opts],
    { cwd: REPO, timeout: 30_000, killSignal: 'SIGKILL', encoding: 'utf8' },
  );
  if (r.status !== 0) return { failed: `status ${r.status} signal ${r.signal}: ${r.stderr.slice(-400)}` };
  return JSON.parse(r.stdout) as VerifyResult;
}

/** boundedVerify that must finish with a result: anything else fails the spec. */
export function bounded(path: string, kind?: string): VerifyResult {
  const r = boundedVerify(path, kind);
  if ('failed' in r) assert.unreachable(`verify did not finish in bounds: ${r.failed}`);
  if ('error' in r) assert.unreachable(`verify threw ${r.error}`);
  return r as VerifyResult;
}
