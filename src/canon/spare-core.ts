import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';

/**
 * Whether a core is free for reader threads. The 1-minute load average counts this process too: a program that
 * fingerprints often (a store, the bench) keeps it near 1-2 on its own, and on 2 cores that read as "no core free"
 * on an idle machine. So between two calls (0.1-10 s apart) the question is asked of the others' CPU time only:
 * all cores' busy time (os.cpus) less this process's and its waited-for children's (/proc/self/stat, Linux).
 * Without a window (the first call, or /proc missing) the load average decides.
 */
export function spareCore(): boolean {
  const cores = availableParallelism();
  if (cores < 2) return false;
  const now = sample();
  const prev = last;
  last = now;
  return spareBetween(prev, now, cores, loadavg()[0]!);
}

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
  /** This process's CPU time and its reaped children's, ms. */
  oursMs: number;
}

let last: Sample | undefined;

/** USER_HZ: /proc/<pid>/stat counts in its ticks, 100 per second on every Linux build Node supports. */
const TICK_MS = 10;

function sample(): Sample | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name's ")": state is field 3, utime 14, stime 15, cutime 16, cstime 17.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  let busyMs = 0;
  for (const c of cpus()) busyMs += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  if (!Number.isFinite(ticks) || !Number.isFinite(busyMs)) return undefined;
  return { at: performance.now(), busyMs, oursMs: ticks * TICK_MS };
}
