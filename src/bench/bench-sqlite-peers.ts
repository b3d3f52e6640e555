import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import { resolveDecisions } from '../core/decisions.ts';
import { RESOLVE_SQL } from '../backends/sqlite/binding-rows.ts';
import { enginesAvailable, sqliteFactory, sqliteFactoryFor, type SqliteEngine } from '../backends/sqlite/index.ts';
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
  'INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at) ' +
  `VALUES (${lit(name)}, NULL, 'let', ${lit(VALUE)}, NULL, datetime('now'))`;

interface EngineRun {
  engine: SqliteEngine;
  factory: BackendFactory;
  env: BackendEnv;
  backend: Backend;
  run: string;
  frame: number | null;
  dbFile: string;
  time: { write: number; read: number };
}

/** The sqlite3 CLI peers' times per round, and the first failure of one (which skips them all). */
interface Peers {
  sqlite3: string | undefined;
  error?: string;
  perStmt: number[];
  batched: number[];
  jsonRead: number[];
}

const peersOn = (p: Peers): p is Peers & { sqlite3: string } => p.sqlite3 !== undefined && p.error === undefined;

/** How deep the frames are that a resolved read walks up through. */
const READ_DEPTH = 3;

/**
 * `rounds` runs, each on fresh files; every round writes `n` bindings through each of our engines (one run each) and
 * each peer, taking turns, then resolves n/10 on each. The default engine's figures are `ours`; every engine's are in
 * `engines`, with its own ratios to the same peers.
 */
export async function benchSqlitePeers(
  root: string,
  rounds: number,
  n: number,
  env: Record<string, string | undefined>,
): Promise<SqlitePeersResult | Skipped> {
  const reads = Math.max(10, Math.round(n / 10));
  const peers: Peers = { sqlite3: which('sqlite3', env), perStmt: [], batched: [], jsonRead: [] };
  const engines = enginesAvailable();
  const timings = new Map<SqliteEngine, { writes: number[]; reads: number[] }>(
    engines.map((e) => [e, { writes: [], reads: [] }]),
  );
  for (let r = 0; r < rounds; r++) {
    const ours: EngineRun[] = [];
    try {
      for (const engine of engines) {
        const dir = join(root, `round${r}`, engine);
        const opened = await openEngine(engine, dir, `bench-sqlite-peers-${process.pid}-${r}-${engine}`, READ_DEPTH);
        if (typeof opened === 'string') return { skipped: opened };
        ours.push(opened);
      }
      await writeRound(ours, peers, join(root, `round${r}`), n);
      await readRound(ours, peers, n, reads);
      for (const o of ours) {
        timings.get(o.engine)!.writes.push(o.time.write);
        timings.get(o.engine)!.reads.push(o.time.read);
      }
    } finally {
      for (const o of ours) {
        await o.backend.close();
        await o.factory.dispose?.(o.env);
      }
    }
  }
  return peersResult(peers, timings, n, reads, engines);
}

/**
 * Writes `n` bindings through each engine and each peer. Writers take turns, CHUNK bindings each, so the disk's
 * state (writeback of earlier sections, a neighbour's I/O) weighs on all alike; each writer's time is the sum of its
 * turns. The peers start from the same file: our schema and frames, no bindings yet.
 */
async function writeRound(ours: EngineRun[], peers: Peers, dir: string, n: number): Promise<void> {
  const perStatementDb = join(dir, 'per-statement.db');
  const batchedDb = join(dir, 'batched.db');
  copyFileSync(ours[0]!.dbFile, perStatementDb);
  copyFileSync(ours[0]!.dbFile, batchedDb);
  const session = peers.sqlite3 ? Sqlite3Session.open(peers.sqlite3, batchedDb) : undefined;
  const time = { perStmt: 0, batched: 0 };
  for (let start = 0; start < n; start += CHUNK) {
    const names = Array.from({ length: Math.min(CHUNK, n - start) }, (_, i) => `b${start + i}`);
    let t: number;
    for (const o of ours) {
      t = performance.now();
      for (const name of names)
        await o.backend.call(
          'bind',
          { run: o.run, name, kind: 'let', value: VALUE },
          { role: 'subagent', binding: name },
        );
      o.time.write += performance.now() - t;
    }
    if (!peersOn(peers)) continue;
    try {
      // (a) one process per statement, as the seed does: sqlite3 state.db "INSERT OR REPLACE INTO bindings ...".
      t = performance.now();
      for (const name of names) cli(peers.sqlite3, [perStatementDb, insertSql(name)]);
      time.perStmt += performance.now() - t;
      // (b) one process for the whole run, every statement its own autocommit transaction.
      t = performance.now();
      await session!.run(names.map((name) => `${insertSql(name)};`).join('\n'));
      time.batched += performance.now() - t;
    } catch (err) {
      peers.error = failed(err);
    }
  }
  await session?.close().catch((err: unknown) => {
    peers.error ??= failed(err);
  });
  if (!peersOn(peers)) return;
  try {
    checkCount(peers.sqlite3, perStatementDb, n);
    checkCount(peers.sqlite3, batchedDb, n);
    peers.perStmt.push(time.perStmt);
    peers.batched.push(time.batched);
  } catch (err) {
    peers.error = failed(err);
  }
}

/** Resolved reads, alternating one of each engine's with one `sqlite3 -json` process running the same CTE. */
async function readRound(ours: EngineRun[], peers: Peers, n: number, reads: number): Promise<void> {
  let cliRead = 0;
  for (let i = 0; i < reads; i++) {
    const name = `b${(i * 7) % n}`;
    let t: number;
    for (const o of ours) {
      t = performance.now();
      const res = await o.backend.call('resolve', { run: o.run, name, executionId: o.frame }, { role: 'vm' });
      o.time.read += performance.now() - t;
      if (res.value !== VALUE) throw new Error(`our sqlite backend (${o.engine}) resolved a different value`);
    }
    if (!peersOn(peers)) continue;
    try {
      t = performance.now();
      const q = RESOLVE_SQL.replace(':eid', String(ours[0]!.frame)).replace(':name', lit(name));
      const out = JSON.parse(cli(peers.sqlite3, ['-json', ours[0]!.dbFile, q])) as { value: string }[];
      cliRead += performance.now() - t;
      if (out[0]?.value !== VALUE) throw new Error('sqlite3 -json resolved a different value');
    } catch (err) {
      peers.error = failed(err);
    }
  }
  if (peersOn(peers)) peers.jsonRead.push(cliRead);
}

/** The figures: each peer's timing (or why they were skipped), and each engine's with its ratios to them. */
function peersResult(
  peers: Peers,
  timings: Map<SqliteEngine, { writes: number[]; reads: number[] }>,
  n: number,
  reads: number,
  engines: SqliteEngine[],
): SqlitePeersResult {
  const skip = peers.sqlite3 ? peers.error : 'sqlite3 not on PATH';
  const peer = (runs: number[], ops: number, command: string): PeerTiming | Skipped =>
    skip ? { skipped: skip } : { ...timingOf(runs, ops), command };
  const timed: SqlitePeersResult['peers'] = {
    'cli-per-statement': peer(peers.perStmt, n, PEER_COMMANDS.perStatement),
    'cli-batched': peer(peers.batched, n, PEER_COMMANDS.batched),
    'cli-json-read': peer(peers.jsonRead, reads, PEER_COMMANDS.jsonRead),
  };
  const byEngine: NonNullable<SqlitePeersResult['engines']> = {};
  for (const [engine, t] of timings) {
    const write = timingOf(t.writes, n);
    const read = timingOf(t.reads, reads);
    const ratios: Record<string, number> = {};
    for (const [k, v] of Object.entries(timed)) {
      if (isSkipped(v)) continue;
      ratios[k] = (k === 'cli-json-read' ? read.ms : write.ms) / v.ms;
    }
    byEngine[engine] = { write, read, ratios };
  }
  const defaultName = sqliteFactory.settings?.engine as SqliteEngine | undefined;
  const mine = byEngine[defaultName ?? engines[0]!]!;
  return {
    bindings: n,
    reads,
    valueBytes: Buffer.byteLength(VALUE),
    readDepth: READ_DEPTH,
    ...(defaultName ? { engine: defaultName } : {}),
    ...(peers.sqlite3 ? { sqlite3: peers.sqlite3 } : {}),
    ours: { write: mine.write, read: mine.read },
    peers: timed,
    ratios: mine.ratios,
    engines: byEngine,
  };
}

const PEER_COMMANDS = {
  perStatement: 'sqlite3 state.db "INSERT OR REPLACE INTO bindings ..." (one process per binding)',
  batched: 'sqlite3 state.db < INSERTs on stdin (one process for the run; each INSERT its own autocommit)',
  jsonRead: 'sqlite3 -json state.db "<scope resolution CTE>" (one process per read)',
};

/** Our backend on `engine` in `dir`, with a run and `depth` nested frames; a string says why it did not open. */
async function openEngine(
  engine: SqliteEngine,
  dir: string,
  storageKey: string,
  depth: number,
): Promise<EngineRun | string> {
  const env: BackendEnv = {
    projectDir: join(dir, 'project'),
    homeDir: join(dir, 'home'),
    decisions: resolveDecisions(),
    storageKey,
  };
  mkdirSync(env.projectDir, { recursive: true });
  mkdirSync(env.homeDir, { recursive: true });
  const factory = sqliteFactoryFor(engine);
  let backend: Backend;
  try {
    backend = await factory.open(env);
  } catch (err) {
    return `sqlite backend (${engine}) did not open: ${err instanceof Error ? err.message : String(err)}`;
  }
  const { run } = await backend.call('createRun', { program: 'session "bench"\n' }, { role: 'vm' });
  let frame: number | null = null;
  for (let d = 0; d < depth; d++)
    frame = (await backend.call('enterFrame', { run, block: `b${d}`, parent: frame }, { role: 'vm' })).executionId;
  const dbFile = new SqlitePaths(env.projectDir, env.homeDir).runDb(run);
  return { engine, factory, env, backend, run, frame, dbFile, time: { write: 0, read: 0 } };
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

/** The flat-map keys of these ratios (what `--compare` gates): the default engine's, then each engine's. */
export function sqlitePeerRatios(r: SqlitePeersResult | Skipped | undefined): Record<string, number> {
  if (!r || isSkipped(r)) return {};
  const out = Object.fromEntries(Object.entries(r.ratios).map(([k, v]) => [`sqlite.peer.${k}`, v]));
  for (const [engine, e] of Object.entries(r.engines ?? {}))
    for (const [k, v] of Object.entries(e.ratios)) out[`sqlite.engine.${engine}.${k}`] = v;
  return out;
}
