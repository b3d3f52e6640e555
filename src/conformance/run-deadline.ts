import { ProseError } from '../core/errors.ts';

/** A whole-run deadline (test --deadline): `ms` after `startedAt` (performance.now(); default: when the run starts). */
export interface DeadlineOption {
  ms: number;
  startedAt?: number;
}

/**
 * The deadline of one run of the suite: `signal` aborts when it passes (worker steps kill their processes on it and
 * give up), `reached` resolves then (the teller stops waiting for results). Its timer does not hold the process.
 */
export class RunDeadline {
  private readonly abort = new AbortController();
  private readonly timer: NodeJS.Timeout;
  readonly reached: Promise<void>;

  constructor(readonly option: DeadlineOption) {
    const left = option.ms - (performance.now() - (option.startedAt ?? performance.now()));
    let reach!: () => void;
    this.reached = new Promise((r) => {
      reach = r;
    });
    this.timer = setTimeout(
      () => {
        this.abort.abort(deadlineError(option.ms));
        reach();
      },
      Math.max(0, left),
    );
    this.timer.unref();
  }

  get passed(): boolean {
    return this.abort.signal.aborted;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

export function deadlineError(ms: number): ProseError {
  return new ProseError('E_BACKEND', `the run's deadline (--deadline, ${ms / 1000} s) passed`, {
    hint: 'cases not finished by then are reported as not run',
  });
}
