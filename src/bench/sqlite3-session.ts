import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * One `sqlite3 DB` process fed SQL on stdin a batch at a time: each `run` resolves when the CLI has executed the
 * batch (it prints a marker SELECTed after it; the CLI flushes stdout per statement). So one process can run its
 * statements in pieces, interleaved with other writers, and still be "one process, each statement autocommitted".
 */
export class Sqlite3Session {
  private out = '';
  private err = '';
  private marks = 0;
  private waiter: { mark: string; resolve: () => void; reject: (e: Error) => void } | undefined;
  private exited: Error | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.out += d;
      this.check();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      this.err += d;
      this.check();
    });
    child.on('error', (e) => this.fail(e));
    child.on('exit', (code) => this.fail(new Error(`sqlite3 exited (${code}) ${this.err.trim()}`)));
  }

  static open(sqlite3: string, db: string): Sqlite3Session {
    return new Sqlite3Session(spawn(sqlite3, [db], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /** Runs `sql` (complete statements, each ending in ';') and waits until the CLI has done them. */
  run(sql: string): Promise<void> {
    if (this.exited) return Promise.reject(this.exited);
    const mark = `prose-state-mark-${++this.marks}`;
    const done = new Promise<void>((resolve, reject) => {
      this.waiter = { mark, resolve, reject };
    });
    this.child.stdin.write(`${sql}\nSELECT '${mark}';\n`);
    return done;
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise<number | null>((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    const code = await exit;
    if (code !== 0 || this.err.trim() !== '')
      throw new Error(`sqlite3 exit ${code}: ${this.err.trim().split('\n')[0]}`);
  }

  private check(): void {
    const w = this.waiter;
    if (!w) return;
    if (this.err.trim() !== '') {
      this.waiter = undefined;
      w.reject(new Error(`sqlite3: ${this.err.trim().split('\n')[0]}`));
    } else if (this.out.includes(`${w.mark}\n`)) {
      this.waiter = undefined;
      this.out = '';
      w.resolve();
    }
  }

  private fail(e: Error): void {
    this.exited ??= e;
    const w = this.waiter;
    this.waiter = undefined;
    w?.reject(e);
  }
}
