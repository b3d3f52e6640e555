import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv } from '../core/backend.ts';
import { resolveDecisions } from '../core/decisions.ts';
import { RESOLVE_SQL } from '../backends/sqlite/binding-rows.ts';
import { sqliteFactory } from '../backends/sqlite/index.ts';
import { SqlitePaths } from '../backends/sqlite/sqlite-paths.ts';
import { isSkipped, type OpsTiming, type PeerTiming, type Skipped, type SqlitePeersResult } from './bench-report.ts';
import { median } from './measure.ts';
import { Sqlite3Session } from './sqlite3-session.ts';
import { which } from './which.ts';

/** The same 1.1 KB binding value as bench-backends.ts. */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(
  12,
);

/** Per-op timing of `rounds` runs of `ops` operations each (ms = median over the runs of run time / ops). */
function timingOf(runsMs: number[], ops: number): OpsTiming {
  const per = runsMs.map((t) => t / ops);
  const ms = median(per);
  return {
    ms,
    meanMs: per.reduce((a, b) => a + b, 0) / per.length,
    samples: runsMs.length * ops,
    opsPerSec: 1000 / ms,
  };
}

/** A peer that failed is skipped with this reason. */
const failed = (err: unknown) => `failed: ${err instanceof Error ? err.message : String(err)}`;

/** Bindings each writer writes per turn. */
const CHUNK = 50;

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const insertSql = (name: string) =>
  `INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at) VALUES (${lit(name)}, NULL, 'let', ${lit(VALUE)}, NULL, datetime('now'))`;

/** `rounds` runs, each on fresh files; every round writes `n` bindings through each writer, then resolves n/10. */
export async function benchSqlitePeers(
  root: string,
  rounds: number,
  n: number,
  env: Record<string, string | undefined>,
): Promise<SqlitePeersResult | Skipped> {
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
      projectDir: join(dir, 'project'),
      homeDir: join(dir, 'home'),
      decisions: resolveDecisions(),
      storageKey: `bench-sqlite-peers-${process.pid}-${r}`,
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
      const perStatementDb = join(dir, 'per-statement.db');
      const batchedDb = join(dir, 'batched.db');
      copyFileSync(dbFile, perStatementDb);
      copyFileSync(dbFile, batchedDb);
      const peersOn = () => sqlite3 !== undefined && peerError === undefined;
      const session = sqlite3 ? Sqlite3Session.open(sqlite3, batchedDb) : undefined;
      // Writers take turns, CHUNK bindings each, so the disk's state (writeback of earlier sections, a neighbour's
      // I/O) weighs on all alike; each writer's time is the sum of its turns.
      const time = { ours: 0, perStmt: 0, batched: 0 };
      for (let start = 0; start < n; start += CHUNK) {
        const names = Array.from({ length: Math.min(CHUNK, n - start) }, (_, i) => `b${start + i}`);
        let t = performance.now();
        for (const name of names)
          await backend.call('bind', { run, name, kind: 'let', value: VALUE }, { role: 'subagent', binding: name });
        time.ours += performance.now() - t;
        if (!peersOn()) continue;
        try {
          // (a) one process per statement, as the seed does: sqlite3 state.db "INSERT OR REPLACE INTO bindings ...".
          t = performance.now();
          for (const name of names) cli(sqlite3!, [perStatementDb, insertSql(name)]);
          time.perStmt += performance.now() - t;
          // (b) one process for the whole run, every statement its own autocommit transaction.
          t = performance.now();
          await session!.run(names.map((name) => `${insertSql(name)};`).join('\n'));
          time.batched += performance.now() - t;
        } catch (err) {
          peerError = failed(err);
        }
      }
      await session?.close().catch((err: unknown) => {
        peerError ??= failed(err);
      });
      ourWrites.push(time.ours);
      if (peersOn()) {
        try {
          checkCount(sqlite3!, perStatementDb, n);
          checkCount(sqlite3!, batchedDb, n);
          perStmt.push(time.perStmt);
          batched.push(time.batched);
        } catch (err) {
          peerError = failed(err);
        }
      }
      // Resolved reads, alternating one of ours with one `sqlite3 -json` process running the same CTE on our file.
      let oursRead = 0;
      let cliRead = 0;
      for (let i = 0; i < reads; i++) {
        const name = `b${(i * 7) % n}`;
        let t = performance.now();
        const res = await backend.call('resolve', { run, name, executionId: frame }, { role: 'vm' });
        oursRead += performance.now() - t;
        if (res.value !== VALUE) throw new Error('our sqlite backend resolved a different value');
        if (!peersOn()) continue;
        try {
          t = performance.now();
          const q = RESOLVE_SQL.replace(':eid', String(frame)).replace(':name', lit(name));
          const out = JSON.parse(cli(sqlite3!, ['-json', dbFile, q])) as { value: string }[];
          cliRead += performance.now() - t;
          if (out[0]?.value !== VALUE) throw new Error('sqlite3 -json resolved a different value');
        } catch (err) {
          peerError = failed(err);
        }
      }
      ourReads.push(oursRead);
      if (peersOn()) jsonRead.push(cliRead);
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
    'cli-per-statement': peer(
      perStmt,
      n,
      'sqlite3 state.db "INSERT OR REPLACE INTO bindings ..." (one process per binding)',
    ),
    'cli-batched': peer(
      batched,
      n,
      'sqlite3 state.db < INSERTs on stdin (one process for the run; each INSERT its own autocommit)',
    ),
    'cli-json-read': peer(jsonRead, reads, 'sqlite3 -json state.db "<scope resolution CTE>" (one process per read)'),
  };
  const ratios: Record<string, number> = {};
  for (const [k, v] of Object.entries(peers)) {
    if (isSkipped(v)) continue;
    ratios[k] = (k === 'cli-json-read' ? ours.read.ms : ours.write.ms) / v.ms;
  }
  const engine = sqliteFactory.settings?.engine;
  return {
    bindings: n,
    reads,
    valueBytes: Buffer.byteLength(VALUE),
    readDepth,
    ...(engine ? { engine } : {}),
    ...(sqlite3 ? { sqlite3 } : {}),
    ours,
    peers,
    ratios,
  };
}

function cli(sqlite3: string, args: string[], input?: Buffer): string {
  const r = spawnSync(sqlite3, args, {
    input,
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.error) throw r.error;
  if (r.status !== 0 || r.stderr.trim() !== '')
    throw new Error(`sqlite3 exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
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
