/**
 * Issue 35, pg-mem: the time of one commitWorldModel (and of a one-row SELECT) on a run of N bindings and events,
 * before and after one resume of that run, grown as bench --scale grows it (ScaleRun).
 * Usage: node --import tsx bench/pg-commit-after-resume.ts [--sizes 100,10000] [--edition v0|current]
 * Prints one JSON line per size, medians of 15 calls in ms and the load average: commitBefore and selectBefore (no
 * resume yet), resume (one call), commitAfter and selectAfter (15 calls after that one resume), and
 * commitEachAfterResume and selectEachAfterResume (each timed call straight after a resume of its own).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveDecisions } from '../src/core/decisions.ts';
import type { Edition } from '../src/core/editions.ts';
import { createPostgresMemFactory } from '../src/backends/postgres/postgres-mem-factory.ts';
import { ScaleRun } from '../src/bench/scale-ops.ts';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const sizes = arg('--sizes', '100,10000').split(',').map(Number);
const edition = arg('--edition', 'v0') as Edition;

async function median(fn: () => Promise<unknown>, n = 15): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return Number(ms[Math.floor(n / 2)]!.toFixed(3));
}

async function medianOf(fn: () => Promise<number>, n = 15): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) ms.push(await fn());
  ms.sort((a, b) => a - b);
  return Number(ms[Math.floor(n / 2)]!.toFixed(3));
}

for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'pg-commit-'));
  const factory = createPostgresMemFactory();
  const env = { projectDir: dir, homeDir: dir, decisions: resolveDecisions(), storageKey: `k${size}`, edition };
  const backend = await factory.open(env);
  const { run } = await backend.call('createRun', { program: 'session "scale"\n' }, { role: 'vm' });
  const scale = new ScaleRun(backend, run, true, true);
  await scale.growTo(size, () => false);
  const db = factory.openDb(env);
  const select = () => db.query('SELECT id FROM openprose.run WHERE id = $1', [run]);
  const commit = scale.op('commitWorldModel');
  const resume = scale.op('resume');
  // The call right after a resume, timed alone, 15 times.
  const afterEachResume = (fn: () => Promise<unknown>) =>
    medianOf(async () => {
      await resume();
      const t = performance.now();
      await fn();
      return performance.now() - t;
    });
  const out: Record<string, unknown> = { size, edition, load: loadavg()[0]!.toFixed(2) };
  out.commitBefore = await median(commit);
  out.selectBefore = await median(select);
  out.resume = await median(resume, 1);
  out.commitAfter = await median(commit);
  out.selectAfter = await median(select);
  out.commitEachAfterResume = await afterEachResume(commit);
  out.selectEachAfterResume = await afterEachResume(select);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await backend.close();
  await factory.dispose?.(env);
  rmSync(dir, { recursive: true, force: true });
}
