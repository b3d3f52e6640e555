import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { MixedWritersStep } from './steps/mixed-writers.ts';
import { checkWritten } from './check-written.ts';
import { workerBase, type WorkerContext, type WorkerVerdict } from './run-workers.ts';
import { spawnWorker, type WorkerHandle } from './spawn-worker.ts';
import { seededRandom } from './workload.ts';

/** The busy timeout the seed's commands get in our subagent instructions (`-cmd ".timeout 10000"`). */
const CLI_TIMEOUT_MS = 10_000;
const CLI_NAME = /^c(\d+)_(\d+)$/;
const OUR_NAME = /^w(\d+)_(\d+)$/;

/** The real sqlite3 on PATH (its --version answers), or why there is none: the case is then skipped with it. */
export function findSqlite3(
  env: Record<string, string | undefined> = process.env,
): { path: string } | { skip: string } {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, 'sqlite3');
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue;
    }
    const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    if (r.status === 0 && /^3\.\d+\.\d+ /.test(r.stdout)) return { path };
  }
  return { skip: 'no sqlite3 on PATH' };
}

/** The value a CLI writer stores for item i: varied length, quotes doubled as SQL wants. */
export function cliValue(writer: number, i: number): string {
  return `cli writer ${writer} item ${i} 'quoted' ${'z'.repeat((i * 53) % 700)}`;
}

/**
 * The sqlite-mixed-writers area: `ours` worker processes (the backend) and `cli` loops of the real sqlite3, one
 * process per INSERT as the seed's subagents run it (with our instructions' busy timeout), write bindings into one
 * state.db at once while `readers` sqlite3 loops query it. Each reader's answer must hold every write acknowledged
 * before it started, no name twice, and quick_check ok; afterwards every acknowledged write is there exactly once,
 * whole, and integrity_check (by the real sqlite3) says ok. With `kills`, writers of both sides are SIGKILLed at
 * seeded moments (ours are restarted where they stopped, the CLI's INSERT is run again).
 */
export async function runMixedWriters(
  step: MixedWritersStep,
  ctx: WorkerContext,
  sqlite3: string,
): Promise<WorkerVerdict> {
  const db = join(ctx.env.projectDir, '.prose', 'runs', ctx.run, 'state.db');
  const random = seededRandom(ctx.seed);
  const acked = new Set<string>(); // binding names, ours and the CLI's, in the order acknowledged
  const cliValues = new Map<string, string>();
  const writerFailures: string[] = [];
  const badReads: string[] = [];
  const running = new Set<ChildProcess>();
  let stopping = false;
  let kills = 0;
  let readerQueries = 0;
  await ctx.close();

  const cliInsert = (name: string, value: string) =>
    'INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at) ' +
    `VALUES ('${name}', NULL, 'let', '${value.replace(/'/g, "''")}', 'let ${name} = session "cli"', datetime('now'))`;

  /** One sqlite3 process; resolves with its exit and output. */
  const runCli = (args: string[]) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(sqlite3, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(ctx.signal ? { signal: ctx.signal, killSignal: 'SIGKILL' as const } : {}),
      });
      running.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('error', (err) => {
        stderr += err.message;
      });
      child.on('close', (code, signal) => {
        running.delete(child);
        resolve({ code, signal, stdout, stderr });
      });
    });

  const cliWriter = async (w: number) => {
    for (let i = 0; i < step.each && !stopping; i++) {
      const name = `c${w}_${i}`;
      const value = cliValue(w, i);
      for (;;) {
        const r = await runCli(['-cmd', `.timeout ${CLI_TIMEOUT_MS}`, db, cliInsert(name, value)]);
        if (r.signal === 'SIGKILL') continue; // killed mid-INSERT: not acknowledged, run again (REPLACE keeps one row)
        if (r.code !== 0) {
          writerFailures.push(`sqlite3 writer ${w} item ${i}: exit ${r.code}: ${r.stderr.trim().slice(0, 200)}`);
          return;
        }
        cliValues.set(name, value);
        acked.add(name);
        break;
      }
    }
  };

  const ourWriter = async (w: number) => {
    let done = 0;
    while (done < step.each && !stopping) {
      const h: WorkerHandle = spawnWorker({
        ...workerBase(ctx),
        workload: 'bindings',
        writer: w,
        start: done,
        count: step.each - done,
        onAck: (key) => acked.add(key.slice('binding '.length)),
        waitForGo: true,
      });
      h.child.stdin!.end(); // go as soon as it is ready (and exit when done: an open stdin keeps a worker alive)
      running.add(h.child);
      h.child.on('close', () => running.delete(h.child));
      const r = await h.done;
      done += r.acks.size;
      if (r.signal === 'SIGKILL') continue; // restarted at the first write it did not acknowledge
      if (r.failure || r.code !== 0) {
        writerFailures.push(`our writer ${w}: ${r.failure ?? `exit ${r.code}: ${r.stderr.slice(-300)}`}`);
        return;
      }
    }
  };

  const reader = async (n: number) => {
    while (!stopping) {
      const before = new Set(acked);
      const r = await runCli([
        '-cmd',
        `.timeout ${CLI_TIMEOUT_MS}`,
        db,
        'BEGIN; PRAGMA quick_check; SELECT count(*) FROM bindings; SELECT name FROM bindings; COMMIT',
      ]);
      if (stopping && r.signal) return;
      readerQueries++; // one transaction: the count and the names are of one state
      const wrong = judgeRead(r.code, r.stdout, r.stderr, before);
      if (wrong) badReads.push(`sqlite3 reader ${n}, query ${readerQueries}: ${wrong}`);
    }
  };

  const killer = async () => {
    for (let k = 0; k < step.kills && !stopping; k++) {
      await new Promise((r) => setTimeout(r, 50 + Math.floor(random() * 400)));
      // Alternately one of ours and one sqlite3 writer, whichever is running now.
      const pool = [...running].filter((c) => (k % 2 === 0) === (c.spawnfile !== sqlite3) && !isReader(c));
      const victim = pool[Math.floor(random() * pool.length)];
      if (victim?.kill('SIGKILL')) kills++;
    }
  };
  const isReader = (c: ChildProcess) => c.spawnargs.some((a) => a.includes('PRAGMA quick_check'));

  const writers = [
    ...Array.from({ length: step.ours }, (_, w) => ourWriter(w)),
    ...Array.from({ length: step.cli }, (_, w) => cliWriter(w)),
  ];
  const readers = Array.from({ length: step.readers }, (_, n) => reader(n));
  const killing = killer();
  await Promise.all(writers);
  stopping = true;
  await Promise.all([...readers, killing]);
  // Everything is counted, not only the first problem: the area's report is the evidence of what went wrong.
  const wrong: string[] = [];
  if (writerFailures.length)
    wrong.push(`${writerFailures.length} writer(s) failed (first: ${writerFailures[0]!.slice(0, 240)})`);
  if (badReads.length)
    wrong.push(
      `${badReads.length} of ${readerQueries} reads saw a torn or wrong state (first: ${badReads[0]!.slice(0, 240)})`,
    );
  const after = await runCli([db, 'PRAGMA integrity_check', "SELECT name || '=' || value FROM bindings"]);
  const lines = after.stdout.split('\n').filter((l) => l !== '');
  const verdict = lines.slice(
    0,
    Math.max(
      1,
      lines.findIndex((l) => /^[cw]\d+_\d+=/.test(l)),
    ),
  );
  if (after.code !== 0 || lines[0] !== 'ok')
    wrong.push(`integrity_check afterwards: ${(verdict.slice(0, 4).join('; ') || after.stderr).slice(0, 300)}`);
  const rows = new Map<string, number>();
  const values = new Map<string, string>();
  for (const l of lines.slice(1)) {
    const m = /^([cw]\d+_\d+)=/.exec(l);
    if (!m) continue; // the rest of a multi-line value of ours (checked through the backend below)
    rows.set(m[1]!, (rows.get(m[1]!) ?? 0) + 1);
    values.set(m[1]!, l.slice(m[0].length));
  }
  const lost = [...acked].filter((n) => !rows.has(n));
  const doubled = [...rows].filter(([, k]) => k > 1).map(([n]) => n);
  const tornCli = [...cliValues].filter(([n, v]) => rows.has(n) && values.get(n) !== v).map(([n]) => n);
  if (lost.length) wrong.push(`${lost.length} acknowledged write(s) lost (${lost.slice(0, 5).join(', ')})`);
  if (doubled.length)
    wrong.push(`${doubled.length} binding(s) stored more than once (${doubled.slice(0, 5).join(', ')})`);
  if (tornCli.length)
    wrong.push(`${tornCli.length} sqlite3 write(s) read back torn (${tornCli.slice(0, 5).join(', ')})`);
  const expected = (step.ours + step.cli) * step.each;
  if (wrong.length === 0 && acked.size !== expected)
    wrong.push(`${acked.size} of ${expected} writes were acknowledged`);
  if (wrong.length === 0) {
    const oursAcked = new Map(
      [...acked].filter((n) => OUR_NAME.test(n)).map((n) => [`binding ${n}`, true] as [string, unknown]),
    );
    const problem = await checkWritten(
      await ctx.reopen(),
      ctx.factory,
      ctx.run,
      oursAcked,
      ctx.env.decisions.attachmentThresholdBytes,
    );
    if (problem) wrong.push(problem);
  }
  if (wrong.length)
    return {
      ok: false,
      message: `${acked.size} writes acknowledged, ${readerQueries} reads, ${kills} kills: ${wrong.join('; ')}`,
    };
  return {
    ok: true,
    metrics: { 'mixed writes': expected, 'reader queries': readerQueries, ...(step.kills ? { kills } : {}) },
  };
}

/**
 * One reader's answer: quick_check ok, a count equal to the names listed, no name twice, every write acknowledged
 * before the reader started among them, and every name one a writer wrote. Returns what is wrong, or undefined.
 */
export function judgeRead(
  code: number | null,
  stdout: string,
  stderr: string,
  before: ReadonlySet<string>,
): string | undefined {
  if (code !== 0) return `exit ${code}: ${stderr.trim().slice(0, 200)}`;
  const [check, count, ...names] = stdout.split('\n').filter((l) => l !== '');
  if (check !== 'ok') return `quick_check says ${String(check).slice(0, 200)}`;
  if (Number(count) !== names.length) return `count(*) ${count} but ${names.length} names listed`;
  const seen = new Set(names);
  if (seen.size !== names.length) return 'a name is listed twice';
  for (const n of names) if (!CLI_NAME.test(n) && !OUR_NAME.test(n)) return `a name no writer wrote: ${n.slice(0, 60)}`;
  for (const n of before) if (!seen.has(n)) return `${n}, acknowledged before the read began, is missing`;
  return undefined;
}
