import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How the bench specs start the CLI: bin/prose-state.js on this node, or PROSE_STATE_CLI (a script, run with this
 * node, or an executable such as dist/prose-state) so the same spec can run against the built binary.
 */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const cli = process.env.PROSE_STATE_CLI ?? `${REPO}bin/prose-state.js`;
  const script = /\.(m?js|m?ts)$/.test(cli);
  const r = spawnSync(
    script ? process.execPath : cli,
    script ? [...(cli.endsWith('ts') ? ['--import', 'tsx'] : []), cli, ...args] : args,
    {
      cwd: opts.cwd ?? REPO,
      env: opts.env ?? process.env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `runCli` of a run printing JSON, and that JSON (empty when stdout is not JSON: a spec asserts on `run` then). */
export function runCliJson(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const run = runCli(args, opts);
  try {
    return { run, report: JSON.parse(run.stdout) as Record<string, any> };
  } catch {
    return { run, report: {} as Record<string, any> };
  }
}
