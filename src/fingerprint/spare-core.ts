import { availableParallelism, cpus, loadavg } from 'node:os';
import { procStatFields } from '../core/proc-stat.ts';
import { fsSyncCalls } from './fs-tree-reader.ts';

/**
 * Whether a core is free for reader threads. The 1-minute load average counts this process too: a program that
 * fingerprints often (a store, the bench) keeps it near 1-2 on its own, and on 2 cores that read as "no core free"
 * on an idle machine. So between two calls (0.1-10 s apart) the question is asked of the others' CPU time only:
 * all cores' busy time (os.cpus) less this process's, all its threads (process.cpuUsage), and less what its
 * children that ended and were waited for used (Linux): they will not compete for the next read, and a caller that
 * runs a tool between two fingerprints (the bench's peers) would otherwise read its own child as a busy machine.
 * A child still running counts as another process. Without a window (the first call) the load average decides.
 */
export function spareCore(): boolean {
  const cores = availableParallelism();
  return cores > 1 && judge.ask(sample(), cores, loadavg()[0]!);
}

/** The state between questions: the sample a window starts from, and the last answer. */
export class SpareCoreJudge {
  private last: Sample | undefined;
  private verdict: boolean | undefined;

  /**
   * Asked again within 100 ms (a caller fingerprinting tree after tree), the window is too short for 10 ms ticks:
   * the last answer stands and the window keeps growing from its start.
   */
  ask(now: Sample | undefined, cores: number, load1: number): boolean {
    if (now && this.last && this.verdict !== undefined && now.at - this.last.at < 100) return this.verdict;
    this.verdict = spareBetween(this.last, now, cores, load1);
    this.last = now;
    return this.verdict;
  }
}

const judge = new SpareCoreJudge();

/**
 * The rule itself: the others used less than cores - 1.5 cores on average between the two samples (with this
 * process on one, half a core or more is left), else the load average (which counts this process) below
 * cores - 0.5.
 */
export function spareBetween(prev: Sample | undefined, now: Sample | undefined, cores: number, load1: number): boolean {
  if (now && prev) {
    const ms = now.at - prev.at;
    // Busy times come in 10 ms ticks: a shorter window says little.
    if (ms >= 100 && ms <= 10_000) return (now.busyMs - prev.busyMs - (now.oursMs - prev.oursMs)) / ms < cores - 1.5;
  }
  return load1 < cores - 0.5;
}

export interface Sample {
  at: number;
  /** CPU time of all cores not idle, ms. */
  busyMs: number;
  /** This process's CPU time, and its ended children's that it waited for, ms. */
  oursMs: number;
}

function sample(): Sample | undefined {
  let busyMs = 0;
  for (const c of cpus()) busyMs += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  const ours = process.cpuUsage();
  // os.cpus() reports no times on some platforms (all zero): no window then.
  if (!(busyMs > 0)) return undefined;
  return { at: performance.now(), busyMs, oursMs: (ours.user + ours.system) / 1000 + reapedChildrenMs() };
}

/**
 * CPU time of this process's children that ended and were waited for (`cutime` + `cstime` of /proc/self/stat, in
 * the kernel's fixed 100 ticks per second); 0 where there is no /proc.
 */
export function reapedChildrenMs(): number {
  // Through the fs reader's calls: on this thread the engine touches the file system in one file only.
  const { openSync, readSync, closeSync } = fsSyncCalls;
  let stat: string;
  try {
    const fd = openSync('/proc/self/stat', 'r');
    try {
      stat = Buffer.from(statBuffer.buffer, 0, readSync(fd, statBuffer, 0, statBuffer.length, null)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return 0;
  }
  const f = procStatFields(stat);
  const ticks = Number(f[16 - 3]) + Number(f[17 - 3]); // cutime, cstime
  return Number.isFinite(ticks) ? ticks * 10 : 0;
}

/** /proc/self/stat is one line of a few hundred bytes. */
const statBuffer = new Uint8Array(4096);
