import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv } from '../core/backend.ts';
import { resolveDecisions } from '../core/decisions.ts';
import { RESOLVE_SQL } from '../backends/sqlite/binding-rows.ts';
import { sqliteFactory } from '../backends/sqlite/index.ts';
import { SqlitePaths } from '../backends/sqlite/sqlite-paths.ts';
import { isSkipped, type OpsTiming, type PeerTiming, type Skipped, type SqlitePeersResult } from './bench-report.ts';
import { median } from './measure.ts';
import { which } from './which.ts';

/** The same 1.1 KB binding value as bench-backends.ts. */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(12);

/** Per-op timing of `rounds` runs of `ops` operations each (ms = median over the runs of run time / ops). */
function timingOf(runsMs: number[], ops: number): OpsTiming {
  const per = runsMs.map((t) => t / ops);
  const ms = median(per);
  return { ms, meanMs: per.reduce((a, b) => a + b, 0) / per.length, samples: runsMs.length * ops, opsPerSec: 1000 / ms };
}

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const insertSql = (name: string) =>
  `INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at) VALUES (${lit(name)}, NULL, 'let', ${lit(VALUE)}, NULL, datetime('now'))`;

/** `rounds` runs, each on fresh files; every round writes `n` bindings through each writer, then resolves n/10. */
export async function benchSqlitePeers(root: string, rounds: number, n: number, env: Record<string, string | undefined>): Promise<SqlitePeersResult | Skipped> {
  const reads = Math.max(10, Math.round(n / 10));
  const sqlite3 = which('sqlite3', env);
  const cliSkip = sqlite3 ? undefined : 'sqlite3 not on PATH';
  const ourWrites: number[] = [];
  const ourReads: number[] = [];
  const perStmt: number[] = [];
  const batched: number[] = [];
  const jsonRead: number[] = [];
  let peerError: string | undefined;
  const readDepth = 3;
  for (let r = 0; r < rounds; r++) {
    const dir = join(root, `round${r}`);
    const benv: BackendEnv = {
      projectDir: join(dir, 'project'), homeDir: join(dir, 'home'), decisions: resolveDecisions(), storageKey: `bench-sqlite-peers-${process.pid}-${r}`,
    };
    mkdirSync(benv.projectDir, { recursive: true });
    mkdirSync(benv.homeDir, { recursive: true });
    let backend;
    try {
      backend = await sqliteFactory.open(benv);
    } catch (err) {
      return { skipped: `sqlite backend did not open: ${err instanceof Error ? err.message : String(err)}` };
    }
    let dbFile: string;
    let frame: number | null = null;
    try {
      const { run } = await backend.call('createRun', { program: 'session "bench"\n' }, { role: 'vm' });
      for (let d = 0; d < readDepth; d++) {
        frame = (await backend.call('enterFrame', { run, block: `b${d}`, parent: frame }, { role: 'vm' })).executionId;
      }
      dbFile = new SqlitePaths(benv.projectDir, benv.homeDir).runDb(run);
      // The peers start from the same file: our schema and frames, no bindings yet.
      const template = join(dir, 'template.db');
      copyFileSync(dbFile, template);
      let t = performance.now();
      for (let i = 0; i < n; i++) {
        const name = `b${i}`;
        await backend.call('bind', { run, name, kind: 'let', value: VALUE }, { role: 'subagent', binding: name });
      }
      ourWrites.push(performance.now() - t);
      t = performance.now();
      for (let i = 0; i < reads; i++) {
        const res = await backend.call('resolve', { run, name: `b${(i * 7) % n}`, executionId: frame }, { role: 'vm' });
        if (res.value !== VALUE) throw new Error('our sqlite backend resolved a different value');
      }
      ourReads.push(performance.now() - t);
      if (!sqlite3 || peerError) continue;
      try {
        // (a) one process per statement, as the seed does: sqlite3 state.db "INSERT OR REPLACE INTO bindings ...".
        const a = join(dir, 'per-statement.db');
        copyFileSync(template, a);
        t = performance.now();
        for (let i = 0; i < n; i++) cli(sqlite3, [a, insertSql(`b${i}`)]);
        perStmt.push(performance.now() - t);
        checkCount(sqlite3, a, n);
        // (b) one process, every statement its own autocommit transaction (statements separated by ';').
        const b = join(dir, 'batched.db');
        copyFileSync(template, b);
        const script = join(dir, 'batch.sql');
        writeFileSync(script, Array.from({ length: n }, (_, i) => `${insertSql(`b${i}`)};\n`).join(''));
        const sql = readFileSync(script);
        t = performance.now();
        cli(sqlite3, [b], sql);
        batched.push(performance.now() - t);
        checkCount(sqlite3, b, n);
        // Resolved reads: the same CTE our backend runs, one `sqlite3 -json` process per query, on our own file.
        t = performance.now();
        for (let i = 0; i < reads; i++) {
          const q = RESOLVE_SQL.replace(':eid', String(frame)).replace(':name', lit(`b${(i * 7) % n}`));
          const out = JSON.parse(cli(sqlite3, ['-json', dbFile, q])) as { value: string }[];
          if (out[0]?.value !== VALUE) throw new Error('sqlite3 -json resolved a different value');
        }
        jsonRead.push(performance.now() - t);
      } catch (err) {
        peerError = `failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    } finally {
      await backend.close();
      await sqliteFactory.dispose?.(benv);
    }
  }
  const ours = { write: timingOf(ourWrites, n), read: timingOf(ourReads, reads) };
  const skip = cliSkip ?? peerError;
  const peer = (runs: number[], ops: number, command: string): PeerTiming | Skipped =>
    skip ? { skipped: skip } : { ...timingOf(runs, ops), command };
  const peers: SqlitePeersResult['peers'] = {
    'cli-per-statement': peer(perStmt, n, 'sqlite3 state.db "INSERT OR REPLACE INTO bindings ..." (one process per binding)'),
    'cli-batched': peer(batched, n, 'sqlite3 state.db < batch.sql (one process; each INSERT its own autocommit)'),
    'cli-json-read': peer(jsonRead, reads, 'sqlite3 -json state.db "<scope resolution CTE>" (one process per read)'),
  };
  const ratios: Record<string, number> = {};
  for (const [k, v] of Object.entries(peers)) {
    if (isSkipped(v)) continue;
    ratios[k] = (k === 'cli-json-read' ? ours.read.ms : ours.write.ms) / v.ms;
  }
  return { bindings: n, reads, valueBytes: Buffer.byteLength(VALUE), readDepth, ...(sqlite3 ? { sqlite3 } : {}), ours, peers, ratios };
}

function cli(sqlite3: string, args: string[], input?: Buffer): string {
  const r = spawnSync(sqlite3, args, { input, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0 || r.stderr.trim() !== '') throw new Error(`sqlite3 exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  return r.stdout;
}

function checkCount(sqlite3: string, db: string, n: number): void {
  const got = Number(cli(sqlite3, [db, 'SELECT count(*) FROM bindings']).trim());
  if (got !== n) throw new Error(`sqlite3 wrote ${got} bindings, expected ${n}`);
}

/** The flat-map keys of these ratios (what `--compare` gates). */
export function sqlitePeerRatios(r: SqlitePeersResult | Skipped | undefined): Record<string, number> {
  if (!r || isSkipped(r)) return {};
  return Object.fromEntries(Object.entries(r.ratios).map(([k, v]) => [`sqlite.peer.${k}`, v]));
}
