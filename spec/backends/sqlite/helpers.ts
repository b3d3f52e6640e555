import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Actor } from '../../../src/core/actor.ts';
import type { BackendEnv } from '../../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import type { SqliteEngine } from '../../../src/sqlite/engine.ts';
import { nativeSqlite } from '../../../src/sqlite/native-lock.ts';

export const SQLITE3 = '/usr/bin/sqlite3';
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A fresh project and home directory per spec; `done()` removes them. */
export function tempEnv(label: string): BackendEnv & { dir: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), `prose-sqlite-${label}-`));
  return {
    dir,
    projectDir: join(dir, 'project'),
    homeDir: join(dir, 'home'),
    decisions: { ...DEFAULT_DECISIONS },
    storageKey: dir,
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The real sqlite3 CLI: stdout, stderr and exit code. */
export function cli(args: string[], opts: { cwd?: string } = {}): { stdout: string; stderr: string; status: number } {
  const r = spawnSync(SQLITE3, args, { encoding: 'utf8', cwd: opts.cwd, argv0: 'sqlite3' });
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? -1 };
}

export const subagent = (binding: string, executionId: number | null = null): Actor => ({
  role: 'subagent',
  binding,
  executionId,
});
export const agent = (name: string): Actor => ({ role: 'subagent', agent: name });

/** Runs a fixture script in its own Node process (tsx), collecting its output. */
export function runFixture(
  script: string,
  args: string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, script), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function spawnFixture(script: string, args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The SQLite engines this Node can run (native and posix need node:sqlite: Node 24 here, not the Node 20 on PATH). */
export function enginesHere(): SqliteEngine[] {
  return nativeSqlite() ? ['native', 'posix', 'wasm'] : ['wasm'];
}

/** The engines that take SQLite's own POSIX locks (node:sqlite): none on Node 20. */
export function lockingEnginesHere(): SqliteEngine[] {
  return enginesHere().filter((e) => e !== 'wasm');
}

/** `commit-loop.ts` children, one per engine named, each committing `n` times to `path`; how many still run, and their stderr. */
export function commitLoops(path: string, n: number, engines: readonly string[]) {
  const state = { running: engines.length, stderr: '' };
  for (const e of engines) {
    const w = spawnFixture('commit-loop.ts', [path, String(n), e]);
    w.stdout.resume();
    w.stderr.on('data', (d) => (state.stderr += d));
    w.on('close', () => state.running--);
  }
  return state;
}
