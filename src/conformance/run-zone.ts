import { ProseError } from '../core/errors.ts';

/**
 * The time zones a run picks from by its seed: a positive, a negative, a half-hour and a 45-minute offset, and a
 * zone that keeps daylight saving on the other side of the year. This machine (and CI) runs in UTC, where a backend
 * that stamps local time instead of UTC is indistinguishable from a correct one; under these it is not.
 */
export const RUN_ZONES = [
  'Asia/Kolkata',
  'America/Los_Angeles',
  'Pacific/Auckland',
  'America/St_Johns',
  'Asia/Kathmandu',
] as const;

/** The zone a run with this seed runs its backends under (test --tz replaces it). */
export function zoneForSeed(seed: number): string {
  return RUN_ZONES[(seed >>> 0) % RUN_ZONES.length]!;
}

/** An IANA zone name this Node knows (`UTC` included), else a usage error naming it. */
export function checkZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new ProseError('E_USAGE', `--tz ${JSON.stringify(zone)} is not a time zone this Node knows`, {
      hint: 'give an IANA name such as Asia/Kolkata, America/Los_Angeles or UTC',
    });
  }
  return zone;
}

/** The zones of the runs under way in this process, oldest first, and TZ as it was before the first. */
const active: string[] = [];
let before: string | undefined;

/**
 * Sets TZ for in-process backends (Node re-reads it when assigned) and for every process the run starts (they inherit
 * the environment). Runs side by side in one process (selftest's lanes) share the newest zone; the last to end puts
 * TZ back as it was.
 */
export function enterZone(zone: string): () => void {
  if (active.length === 0) before = process.env.TZ;
  active.push(zone);
  process.env.TZ = zone;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    active.splice(active.lastIndexOf(zone), 1);
    if (active.length) process.env.TZ = active[active.length - 1]!;
    else if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  };
}
