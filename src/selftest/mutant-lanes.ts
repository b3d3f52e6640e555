import { spawn, type ChildProcess } from 'node:child_process';
import { ProseError } from '../core/errors.ts';
import type { Mutant } from './mutant.ts';
import type { GoodCases, MutantVerdict } from './run-selftest.ts';

/** A mutant for a lane (`prose-state selftest --lane`), sent over its IPC channel; the lane answers with its verdict. */
export interface LaneJob {
  mutant: string;
  /** The cases that pass on each reference backend, as the parent's reference run found them. */
  good: Record<string, string[]>;
}

/**
 * Judges the mutants on `lanes` child processes of the CLI (`argv` starts one: `selftest --lane` with the parent's
 * suite options), side by side. Each lane judges one mutant at a time, exactly as the sequential run judges it (its
 * own cases one after another, stopping at the first kill), and takes the next mutant when it answers, so the lanes
 * stay busy whichever mutants survive to the expensive cases. Verdicts are told in the mutants' order, as the
 * sequential run tells them. A lane that dies fails the run (a harness error), naming the mutant it was judging.
 */
export async function judgeInLanes(
  mutants: readonly Mutant[],
  good: GoodCases,
  lanes: number,
  argv: readonly string[],
  onVerdict: (v: MutantVerdict) => void,
): Promise<MutantVerdict[]> {
  const sets = Object.fromEntries(Object.entries(good).map(([backend, ids]) => [backend, [...ids]]));
  const verdicts: (MutantVerdict | undefined)[] = mutants.map(() => undefined);
  let told = 0;
  const tell = () => {
    while (told < mutants.length && verdicts[told]) onVerdict(verdicts[told++]!);
  };
  let next = 0;
  const lane = async () => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      while (next < mutants.length) {
        const n = next++;
        verdicts[n] = await judgeOne(child, { mutant: mutants[n]!.name, good: sets });
        tell();
      }
    } finally {
      if (child.connected) child.disconnect();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, mutants.length)) }, lane));
  return verdicts as MutantVerdict[];
}

function judgeOne(child: ChildProcess, job: LaneJob): Promise<MutantVerdict> {
  return new Promise((resolve, reject) => {
    const onMessage = (v: MutantVerdict) => {
      off();
      resolve(v);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      off();
      reject(
        new ProseError('E_BACKEND', `a selftest lane exited (${signal ?? code}) while it judged mutant ${job.mutant}`, {
          hint: 'its stderr is above; prose-state selftest --jobs 1 judges every mutant in this process',
        }),
      );
    };
    const off = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(job);
  });
}
