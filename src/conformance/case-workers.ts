import { spawn, type ChildProcess } from 'node:child_process';
import type { Edition } from '../core/editions.ts';
import { ProseError, serializeError } from '../core/errors.ts';
import type { Case } from './case-types.ts';
import type { Outcome } from './outcome.ts';
import type { CaseContext } from './run-case.ts';

/** What a case needs besides its backend and itself: the same whether it runs here or in a case worker. */
export type CaseSettings = Pick<
  CaseContext,
  'decisions' | 'dir' | 'stepTimeoutMs' | 'workerCommand' | 'seed' | 'runSeed'
>;

/** One case for a case worker (`prose-state case-worker`, src/cli/commands/case-worker.ts), sent over its IPC channel. */
export interface CaseJob extends CaseSettings {
  /** Pairs the reply with its job. */
  n: number;
  /** The backend string that recreates the factory there (`BackendFactory.spec`). */
  spec: string;
  /** The edition the case judges, beside the string and never parsed out of it (a URL may hold '@'). */
  edition: Edition;
  case: Case;
}

export interface CaseReply {
  n: number;
  outcome: Outcome;
}

/**
 * Child processes that run cases which would otherwise compute in the test process (hashing, parsing, WASM SQLite,
 * pg-mem) on its one thread, while the other cores idle and the crash and concurrency cases must wait for them (they
 * time their workers on the test process's loop and may not share it with computing cases). A worker runs one case at
 * a time and stays for the next; the runner's slots bound how many run at once, so the pool never holds more
 * processes than the run has jobs. Messages use the structured clone (`serialization: 'advanced'`), so an outcome's
 * expected and seen values arrive as they left (undefined fields, Buffers).
 */
export class CaseWorkers {
  private readonly idle: ChildProcess[] = [];
  private readonly all = new Set<ChildProcess>();
  private next = 0;

  constructor(private readonly command: readonly string[]) {}

  async run(job: Omit<CaseJob, 'n'>): Promise<Outcome> {
    const child = this.idle.pop() ?? this.spawn();
    const n = this.next++;
    let lostIt = false;
    const outcome = await new Promise<Outcome>((resolve) => {
      const onMessage = (m: CaseReply) => {
        if (m.n !== n) return;
        off();
        resolve(m.outcome);
      };
      const lost = (why: string) => {
        off();
        lostIt = true;
        const stderr = (child as ChildWithStderr).stderrTail ?? '';
        resolve({
          status: 'errored',
          error: serializeError(
            new ProseError('E_BACKEND', `the case worker ${why} while it ran the case`, { hint: stderr.slice(-500) }),
          ),
        });
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => lost(`exited (${signal ?? code})`);
      const onError = (err: Error) => lost(`failed (${err.message})`);
      const off = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
      child.send({ ...job, n } satisfies CaseJob);
    });
    if (!lostIt) this.idle.push(child);
    return outcome;
  }

  /** Lets every worker finish and exit (each exits when its channel closes). */
  close(): void {
    for (const c of this.all) if (c.connected) c.disconnect();
    this.idle.length = 0;
  }

  private spawn(): ChildProcess {
    const child: ChildWithStderr = spawn(this.command[0]!, [...this.command.slice(1), 'case-worker'], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (c: string) => {
      child.stderrTail = ((child.stderrTail ?? '') + c).slice(-4000);
    });
    // A spawn that failed shows as an exit of the case it was started for.
    child.on('error', (err) => {
      child.stderrTail = `${child.stderrTail ?? ''}${err.message}\n`;
    });
    child.on('exit', () => this.all.delete(child));
    this.all.add(child);
    return child;
  }
}

type ChildWithStderr = ChildProcess & { stderrTail?: string };
