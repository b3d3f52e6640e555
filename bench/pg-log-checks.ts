/**
 * Issue 35, a real PostgreSQL server: what each way of checking a cached execution log costs as one run's log
 * grows, against reading it whole (what the store does there). In a schema of its own (dropped at the end), one
 * run of N events among 20,000 of another run, with the v0 DDL's (run_id, id) index:
 *   whole read       SELECT id, metadata ... WHERE run_id = $1 ORDER BY id          (the store, every call)
 *   past last id     ... AND id > $2 ORDER BY id                                      (an append-only check)
 *   count + max      SELECT count(*), max(id) ... WHERE run_id = $1                   (sees inserts and deletes)
 *   + max(xmin)      ... , max(xmin::text::bigint)                                    (also an UPDATE in place)
 * Usage: PROSE_STATE_TEST_PG_URL=postgresql://... node --import tsx bench/pg-log-checks.ts [--sizes 100,1000,10000]
 * Prints one JSON line per size: median ms of 40 calls each after 5 warm-up calls, and the load average.
 */
import { loadavg } from 'node:os';
import pg from 'pg';

const url = process.env.PROSE_STATE_TEST_PG_URL;
if (!url) {
  process.stderr.write('bench/pg-log-checks.ts: set PROSE_STATE_TEST_PG_URL to a server it may create a schema on\n');
  process.exit(2);
}
const at = process.argv.indexOf('--sizes');
const sizes = (at > 0 ? process.argv[at + 1]! : '100,1000,10000').split(',').map(Number);
const schema = `prose_log_checks_${process.pid}`;
const t = `${schema}.execution`;
const meta = JSON.stringify({ type: 'statement', index: 3, text: 'let s3 = session "step"', status: 'completed' });

const CHECKS: Record<string, [string, unknown[]]> = {
  'whole read': [`SELECT id, metadata FROM ${t} WHERE run_id = $1 ORDER BY id`, ['r']],
  'past last id': [`SELECT id, metadata FROM ${t} WHERE run_id = $1 AND id > $2 ORDER BY id`, ['r', 2 ** 31 - 1]],
  'count + max': [`SELECT count(*), max(id) FROM ${t} WHERE run_id = $1`, ['r']],
  '+ max(xmin)': [`SELECT count(*), max(id), max(xmin::text::bigint) FROM ${t} WHERE run_id = $1`, ['r']],
};

const client = new pg.Client(url);
await client.connect();
try {
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.query(`CREATE TABLE ${t} (id SERIAL PRIMARY KEY, run_id TEXT NOT NULL, metadata JSONB NOT NULL)`);
  await client.query(`CREATE INDEX ON ${t} (run_id, id)`);
  await client.query(`INSERT INTO ${t} (run_id, metadata) SELECT 'other', $1::jsonb FROM generate_series(1, 20000)`, [
    meta,
  ]);
  let held = 0;
  for (const size of sizes) {
    await client.query(`INSERT INTO ${t} (run_id, metadata) SELECT 'r', $1::jsonb FROM generate_series(1, $2)`, [
      meta,
      size - held,
    ]);
    held = size;
    await client.query(`ANALYZE ${t}`);
    const ms: Record<string, number> = {};
    for (const [name, [sql, params]] of Object.entries(CHECKS)) {
      for (let i = 0; i < 5; i++) await client.query(sql, params);
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        const start = performance.now();
        await client.query(sql, params);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      ms[name] = Number(times[20]!.toFixed(3));
    }
    console.log(JSON.stringify({ size, ms, load: Number(loadavg()[0]!.toFixed(1)) }));
  }
} finally {
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}
