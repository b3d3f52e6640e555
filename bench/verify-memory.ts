// How much memory `prose-state verify` holds as what it checks grows (issue 35): a v0 run directory of N bindings
// and a state.db of M MiB. Each fixture is made in a temp dir (PROSE_STATE_BENCH_TMP, else the OS's), verified by
// the CLI in a child process under /usr/bin/time, and removed. Prints one JSON document: per fixture its size, the
// child's peak RSS (getrusage maxrss of the exec'd node, KiB), wall seconds, exit code and the rule ids it reported
// (with counts). No figure is a pass or a fail: docs/bench.md says what was measured and under what load.
//
//   node --import tsx bench/verify-memory.ts [--bindings 1000,10000,100000] [--db-mib 16,128,1024] [--out FILE]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { filesystemFactory } from '../src/backends/filesystem/index.ts';
import { sqliteFactory } from '../src/backends/sqlite/index.ts';
import type { BackendEnv } from '../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../src/core/decisions.ts';
import { formatBindingFile } from '../src/core/formats/binding-file.ts';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    bindings: { type: 'string', default: '1000,10000,100000' },
    'db-mib': { type: 'string', default: '16,128,1024' },
    out: { type: 'string' },
    // The V8 heap the child may grow to (--max-old-space-size): a verify that finishes under it held no more.
    'heap-mib': { type: 'string' },
  },
});
const sizes = (s: string) => (s === '' ? [] : s.split(',').map(Number));
const VM = { role: 'vm' } as const;
/** A value of the size the seed's examples show, as the scale bench binds. */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(4);

interface Measured {
  kind: 'run-dir' | 'state-db';
  size: number;
  bytes: number;
  maxRssKiB: number;
  wallS: number;
  exit: number | null;
  rules: Record<string, number>;
}

function tempEnv(root: string): BackendEnv {
  return {
    projectDir: join(root, 'project'),
    homeDir: join(root, 'home'),
    decisions: DEFAULT_DECISIONS,
    storageKey: root,
  };
}

/** A run of `n` bindings: one bound through the backend, the rest written beside it in its format, then one event
 * through the backend, so state.md's index lists them all as the backend itself renders it. */
async function runDir(root: string, n: number): Promise<string> {
  const env = tempEnv(root);
  const backend = await filesystemFactory.open(env);
  const { run } = await backend.call('createRun', { program: 'let b0 = session "a"\n' }, VM);
  await backend.call('bind', { run, name: 'b0', kind: 'let', value: VALUE }, { role: 'subagent', binding: 'b0' });
  const dir = join(env.projectDir, '.prose', 'runs', run);
  for (let i = 1; i < n; i++) {
    const b = { name: `b${i}`, kind: 'let' as const, executionId: null, source: '', value: VALUE };
    writeFileSync(join(dir, 'bindings', `b${i}.md`), formatBindingFile(b));
  }
  const event = { type: 'statement' as const, index: 1, text: 'let b0 = session "a"', status: 'completed' as const };
  await backend.call('recordEvent', { run, event }, VM);
  await backend.close();
  return dir;
}

/** A run's state.db made by our sqlite backend, grown by the sqlite3 CLI to about `mib` MiB of 1 KiB bindings. */
async function stateDb(root: string, mib: number): Promise<string> {
  const env = tempEnv(root);
  const backend = await sqliteFactory.open(env);
  const { run } = await backend.call('createRun', { program: 'let b0 = session "a"\n' }, VM);
  await backend.close();
  const file = join(env.projectDir, '.prose', 'runs', run, 'state.db');
  const rows = mib * 1024;
  const sql =
    `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows}) ` +
    `INSERT INTO bindings (name, kind, value) SELECT 'b' || i, 'let', hex(randomblob(480)) FROM c;`;
  const r = spawnSync('sqlite3', [file, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3 could not grow ${file}: ${r.stderr}`);
  return file;
}

const heap = values['heap-mib'] ? [`--max-old-space-size=${Number(values['heap-mib'])}`] : [];

function verify(kind: Measured['kind'], size: number, path: string, bytes: number): Measured {
  const started = performance.now();
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'maxrss=%M',
      process.execPath,
      ...heap,
      join(here, 'bin/prose-state.js'),
      'verify',
      path,
      '--format',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 1 << 30 },
  );
  const wallS = (performance.now() - started) / 1000;
  const maxRssKiB = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const rules: Record<string, number> = {};
  for (const m of r.stdout.matchAll(/"rule":"([^"]+)"/g)) rules[m[1]!] = (rules[m[1]!] ?? 0) + 1;
  return { kind, size, bytes, maxRssKiB, wallS: Math.round(wallS * 10) / 10, exit: r.status, rules };
}

function treeBytes(dir: string): number {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(r.stdout.split('\t')[0]);
}

const base = process.env.PROSE_STATE_BENCH_TMP ?? tmpdir();
const results: Measured[] = [];
for (const n of sizes(values.bindings)) {
  const root = mkdtempSync(join(base, 'prose-verify-mem-'));
  try {
    const dir = await runDir(root, n);
    results.push(verify('run-dir', n, dir, treeBytes(dir)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.error(`verify-memory: run-dir of ${n} bindings: ${JSON.stringify(results.at(-1))}`);
}
for (const mib of sizes(values['db-mib'])) {
  const root = mkdtempSync(join(base, 'prose-verify-mem-'));
  try {
    const file = await stateDb(root, mib);
    results.push(verify('state-db', mib, file, statSync(file).size));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.error(`verify-memory: state.db of ~${mib} MiB: ${JSON.stringify(results.at(-1))}`);
}
const report = {
  schema: 'prose-state.verify-memory',
  version: 1,
  date: new Date().toISOString(),
  loadAverage: loadavg(),
  node: process.version,
  results,
};
const text = `${JSON.stringify(report, null, 2)}\n`;
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
