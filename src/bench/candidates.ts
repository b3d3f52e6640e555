import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProseError } from '../core/errors.ts';
import type { CandidateResult } from './bench-report.ts';

/**
 * Another implementation of the OPWM1 fingerprint, put beside ours: a command printing `sha256:<hex>` for the
 * directory it is given, or a JS/TS module exporting `(dir) => address | Promise<address>`. It is timed only
 * after it printed our address on that workload: a fast wrong answer is a failure, not a figure.
 */
export type Candidate =
  | { name: string; kind: 'command'; command: string }
  | { name: string; kind: 'module'; path: string; fn: (dir: string) => unknown };

const ADDRESS = /^sha256:[0-9a-f]{64}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `NAME=COMMAND` or `NAME=module:PATH`; the module is imported here so a bad path is a usage error up front. */
export async function parseCandidate(spec: string, cwd: string): Promise<Candidate> {
  const eq = spec.indexOf('=');
  const name = eq > 0 ? spec.slice(0, eq) : '';
  const body = eq > 0 ? spec.slice(eq + 1).trim() : '';
  if (!NAME.test(name) || body === '')
    throw new ProseError('E_USAGE', `--candidate takes NAME=COMMAND or NAME=module:PATH, not "${spec}"`, {
      hint: 'NAME is letters, digits, ".", "_" or "-"; {} or $1 in COMMAND is the workload directory',
    });
  if (!body.startsWith('module:')) return { name, kind: 'command', command: body };
  const path = resolve(cwd, body.slice('module:'.length));
  if (!existsSync(path)) throw new ProseError('E_USAGE', `--candidate ${name}: no module at ${path}`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ProseError('E_USAGE', `--candidate ${name}: ${path} did not load: ${(err as Error).message}`);
  }
  const fn = typeof mod.default === 'function' ? mod.default : mod.fingerprint;
  if (typeof fn !== 'function')
    throw new ProseError('E_USAGE', `--candidate ${name}: ${path} exports no function (default or "fingerprint")`);
  return { name, kind: 'module', path, fn: fn as (dir: string) => unknown };
}

/** What a report shows for the candidate's origin: the command with DIR for the directory, or the module path. */
export function candidateSource(c: Candidate): string {
  return c.kind === 'command' ? c.command.replaceAll('{}', 'DIR').replaceAll('$1', 'DIR') : `module:${c.path}`;
}

export type Outcome =
  { ok: true } | { ok: false; verdict: 'wrong' | 'failed' | 'timeout'; detail: string; stderr?: string };

/** The last 10 lines (at most 2,000 characters) of a child's stderr: where a crash says why. */
function tail(text: string): string {
  return text.trimEnd().split('\n').slice(-10).join('\n').slice(-2000);
}

interface CommandRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: Error;
}

const MAX_OUTPUT = 1 << 20;

/**
 * Runs a command candidate once; the directory is `$1` of `sh -c`, never spliced into the script. The shell leads
 * a process group of its own, and a timeout kills the whole group: a pipeline's children would otherwise keep the
 * pipes open, and the bench waiting, after the shell itself was killed.
 */
function runCommand(
  command: string,
  dir: string,
  timeoutMs: number,
  env: Record<string, string | undefined>,
): Promise<CommandRun> {
  return new Promise((done) => {
    const child = spawn('sh', ['-c', command.replaceAll('{}', '"$1"'), 'candidate', dir], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = { stdout: '', stderr: '' };
    for (const k of ['stdout', 'stderr'] as const) {
      child[k].setEncoding('utf8');
      child[k].on('data', (chunk: string) => {
        if (out[k].length < MAX_OUTPUT) out[k] += chunk;
      });
    }
    let timedOut = false;
    let error: Error | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (err) => {
      error = err;
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, ...out, timedOut, error });
    });
  });
}

function judge(printed: string, expected: string): Outcome {
  const got = printed.trim();
  if (!ADDRESS.test(got))
    return { ok: false, verdict: 'failed', detail: `printed no OPWM1 address: ${JSON.stringify(got.slice(0, 120))}` };
  if (got !== expected) return { ok: false, verdict: 'wrong', detail: `printed ${got}, expected ${expected}` };
  return { ok: true };
}

/** One checked run of a candidate on `dir`; every way it can go wrong is an outcome, never a throw. */
export async function checkCandidate(
  c: Candidate,
  dir: string,
  expected: string,
  timeoutMs: number,
  env: Record<string, string | undefined>,
): Promise<Outcome> {
  if (c.kind === 'command') {
    const r = await runCommand(c.command, dir, timeoutMs, env);
    const stderr = tail(r.stderr);
    if (r.timedOut)
      return { ok: false, verdict: 'timeout', detail: `no answer within ${timeoutMs} ms (killed)`, stderr };
    if (r.error) return { ok: false, verdict: 'failed', detail: r.error.message, stderr };
    if (r.status !== 0)
      return { ok: false, verdict: 'failed', detail: `exit ${r.status ?? `signal ${r.signal}`}`, stderr };
    const verdict = judge(r.stdout, expected);
    return verdict.ok ? verdict : { ...verdict, stderr };
  }
  // A module runs in this process: a timeout stops waiting for its promise, it cannot stop a synchronous loop.
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      Promise.resolve().then(() => c.fn(dir)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
      }),
    ]);
    return typeof answer === 'string'
      ? judge(answer, expected)
      : { ok: false, verdict: 'failed', detail: `returned ${typeof answer}, not an address string` };
  } catch (err) {
    if (err instanceof TimeoutError)
      return { ok: false, verdict: 'timeout', detail: `no answer within ${timeoutMs} ms` };
    return { ok: false, verdict: 'failed', detail: `threw: ${(err as Error)?.message ?? String(err)}` };
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutError extends Error {}

/**
 * The function the harness times: a command is one whole process (as the peers are), a module one call. A timed
 * run that goes wrong is recorded in `failures` (the harness must not throw away the other figures).
 */
export function timedRun(
  c: Candidate,
  dir: string,
  timeoutMs: number,
  env: Record<string, string | undefined>,
  failures: string[],
): () => Promise<unknown> {
  if (c.kind === 'module')
    return async () => {
      try {
        await c.fn(dir);
      } catch (err) {
        failures.push(`a timed call threw: ${(err as Error)?.message ?? String(err)}`);
      }
    };
  return async () => {
    const r = await runCommand(c.command, dir, timeoutMs, env);
    if (r.timedOut) failures.push(`a timed run took more than ${timeoutMs} ms (killed)`);
    else if (r.error || r.status !== 0)
      failures.push(`a timed run ended ${r.error?.message ?? `exit ${r.status ?? `signal ${r.signal}`}`}`);
  };
}

/** The failure of a candidate on a workload, as the report carries it. */
export function failedResult(c: Candidate, o: Exclude<Outcome, { ok: true }>): CandidateResult {
  return {
    kind: c.kind,
    source: candidateSource(c),
    verdict: o.verdict,
    detail: o.detail,
    ...(o.stderr ? { stderr: o.stderr } : {}),
  };
}
