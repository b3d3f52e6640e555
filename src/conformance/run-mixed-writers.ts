import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
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

/** What runMixedWriters reads of a mixed-writers step. */
export interface MixedWritersRun {
  ours: number;
  cli: number;
  each: number;
  readers: number;
  kills: number;
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
  step: MixedWritersRun,
  ctx: WorkerContext,
  sqlite3: string,
): Promise<WorkerVerdict> {
  const m = new MixedRun(step, ctx, sqlite3);
  await ctx.close();
  const writers = [
    ...Array.from({ length: step.ours }, (_, w) => m.ourWriter(w)),
    ...Array.from({ length: step.cli }, (_, w) => m.cliWriter(w)),
  ];
  const readers = Array.from({ length: step.readers }, (_, n) => m.reader(n));
  const killing = m.killer();
  await Promise.all(writers);
  m.stopping = true;
  await Promise.all([...readers, killing]);
  // Everything is counted, not only the first problem: the area's report is the evidence of what went wrong.
  const wrong: string[] = [];
  if (m.writerFailures.length)
    wrong.push(`${m.writerFailures.length} writer(s) failed (first: ${m.writerFailures[0]!.slice(0, 240)})`);
  if (m.badReads.length)
    wrong.push(
      `${m.badReads.length} of ${m.readerQueries} reads saw a torn or wrong state (first: ${m.badReads[0]!.slice(0, 240)})`,
    );
  wrong.push(...(await storedProblems(m)));
  const expected = (step.ours + step.cli) * step.each;
  if (wrong.length === 0 && m.acked.size !== expected)
    wrong.push(`${m.acked.size} of ${expected} writes were acknowledged`);
  if (wrong.length === 0) {
    const oursAcked = new Map(
      [...m.acked].filter((n) => OUR_NAME.test(n)).map((n) => [`binding ${n}`, true] as [string, unknown]),
    );
    const problem = await checkWritten(await ctx.reopen(), ctx.factory, ctx.run, oursAcked, ctx.env);
    if (problem) wrong.push(problem);
  }
  if (wrong.length)
    return {
      ok: false,
      message: `${m.acked.size} writes acknowledged, ${m.readerQueries} reads, ${m.kills} kills: ${wrong.join('; ')}`,
    };
  return {
    ok: true,
    metrics: { 'mixed writes': expected, 'reader queries': m.readerQueries, ...(step.kills ? { kills: m.kills } : {}) },
  };
}

type CliExit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** One mixed-writers step under way: its writers, readers and killer, and what they acknowledged and saw. */
class MixedRun {
  readonly db: string;
  readonly random: () => number;
  /** Binding names, ours and the CLI's, in the order acknowledged. */
  readonly acked = new Set<string>();
  readonly cliValues = new Map<string, string>();
  readonly writerFailures: string[] = [];
  readonly badReads: string[] = [];
  readonly running = new Set<ChildProcess>();
  stopping = false;
  kills = 0;
  readerQueries = 0;

  constructor(
    readonly step: MixedWritersRun,
    readonly ctx: WorkerContext,
    readonly sqlite3: string,
  ) {
    this.db = join(ctx.env.projectDir, '.prose', 'runs', ctx.run, 'state.db');
    this.random = seededRandom(ctx.seed);
  }

  /** One sqlite3 process; resolves with its exit and output. */
  runCli(args: string[]): Promise<CliExit> {
    return new Promise<CliExit>((resolve) => {
      const child = spawn(this.sqlite3, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(this.ctx.signal ? { signal: this.ctx.signal, killSignal: 'SIGKILL' as const } : {}),
      });
      this.running.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('error', (err) => {
        stderr += err.message;
      });
      child.on('close', (code, signal) => {
        this.running.delete(child);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  async cliWriter(w: number): Promise<void> {
    for (let i = 0; i < this.step.each && !this.stopping; i++) {
      const name = `c${w}_${i}`;
      const value = cliValue(w, i);
      for (;;) {
        const r = await this.runCli(['-cmd', `.timeout ${CLI_TIMEOUT_MS}`, this.db, cliInsert(name, value)]);
        if (r.signal === 'SIGKILL') continue; // killed mid-INSERT: not acknowledged, run again (REPLACE keeps one row)
        if (r.code !== 0) {
          this.writerFailures.push(`sqlite3 writer ${w} item ${i}: exit ${r.code}: ${r.stderr.trim().slice(0, 200)}`);
          return;
        }
        this.cliValues.set(name, value);
        this.acked.add(name);
        break;
      }
    }
  }

  async ourWriter(w: number): Promise<void> {
    let done = 0;
    while (done < this.step.each && !this.stopping) {
      const h: WorkerHandle = spawnWorker({
        ...workerBase(this.ctx),
        workload: 'bindings',
        writer: w,
        start: done,
        count: this.step.each - done,
        onAck: (key) => this.acked.add(key.slice('binding '.length)),
        waitForGo: true,
      });
      h.child.stdin!.end(); // go as soon as it is ready (and exit when done: an open stdin keeps a worker alive)
      this.running.add(h.child);
      h.child.on('close', () => this.running.delete(h.child));
      const r = await h.done;
      done += r.acks.size;
      if (r.signal === 'SIGKILL') continue; // restarted at the first write it did not acknowledge
      if (r.failure || r.code !== 0) {
        this.writerFailures.push(`our writer ${w}: ${r.failure ?? `exit ${r.code}: ${r.stderr.slice(-300)}`}`);
        return;
      }
    }
  }

  async reader(n: number): Promise<void> {
    while (!this.stopping) {
      const before = new Set(this.acked);
      const r = await this.runCli(['-cmd', `.timeout ${CLI_TIMEOUT_MS}`, this.db, READ]);
      if (this.stopping && r.signal) return;
      this.readerQueries++; // one transaction: the count and the names are of one state
      const wrong = judgeRead(r.code, r.stdout, r.stderr, before);
      if (wrong) this.badReads.push(`sqlite3 reader ${n}, query ${this.readerQueries}: ${wrong}`);
    }
  }

  async killer(): Promise<void> {
    const isReader = (c: ChildProcess) => c.spawnargs.some((a) => a.includes('PRAGMA quick_check'));
    for (let k = 0; k < this.step.kills && !this.stopping; k++) {
      await new Promise((r) => setTimeout(r, 50 + Math.floor(this.random() * 400)));
      // Alternately one of ours and one sqlite3 writer, whichever is running now.
      const pool = [...this.running].filter((c) => (k % 2 === 0) === (c.spawnfile !== this.sqlite3) && !isReader(c));
      const victim = pool[Math.floor(this.random() * pool.length)];
      if (victim?.kill('SIGKILL')) this.kills++;
    }
  }
}

/** A reader's transaction: the count and the names are of one state. */
const READ = 'BEGIN; PRAGMA quick_check; SELECT count(*) FROM bindings; SELECT name FROM bindings; COMMIT';

function cliInsert(name: string, value: string): string {
  return (
    'INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at) ' +
    `VALUES ('${name}', NULL, 'let', '${value.replace(/'/g, "''")}', 'let ${name} = session "cli"', datetime('now'))`
  );
}

/** What the real sqlite3 finds stored afterwards: integrity, and every acknowledged write there once and whole. */
async function storedProblems(m: MixedRun): Promise<string[]> {
  const wrong: string[] = [];
  const after = await m.runCli([m.db, 'PRAGMA integrity_check', "SELECT name || '=' || value FROM bindings"]);
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
    const match = /^([cw]\d+_\d+)=/.exec(l);
    if (!match) continue; // the rest of a multi-line value of ours (checked through the backend afterwards)
    rows.set(match[1]!, (rows.get(match[1]!) ?? 0) + 1);
    values.set(match[1]!, l.slice(match[0].length));
  }
  const lost = [...m.acked].filter((n) => !rows.has(n));
  const doubled = [...rows].filter(([, k]) => k > 1).map(([n]) => n);
  const tornCli = [...m.cliValues].filter(([n, v]) => rows.has(n) && values.get(n) !== v).map(([n]) => n);
  if (lost.length) wrong.push(`${lost.length} acknowledged write(s) lost (${lost.slice(0, 5).join(', ')})`);
  if (doubled.length)
    wrong.push(`${doubled.length} binding(s) stored more than once (${doubled.slice(0, 5).join(', ')})`);
  if (tornCli.length)
    wrong.push(`${tornCli.length} sqlite3 write(s) read back torn (${tornCli.slice(0, 5).join(', ')})`);
  return wrong;
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
