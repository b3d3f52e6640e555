import { ProseError } from './errors.ts';

/** `{YYYYMMDD}-{HHMMSS}-{random6}`: UTC time and six lowercase hex digits (docs/decisions.md `run-id`). */
export const RUN_ID_PATTERN = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([0-9a-f]{6})$/;

export function isRunId(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = RUN_ID_PATTERN.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s));
  // Rejects 20261332-... and 25:61:61: the digits must name a real UTC instant.
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo! - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

export function checkRunId(value: unknown, field = 'runId'): string {
  if (!isRunId(value)) {
    throw new ProseError('E_INVALID_ARGUMENT', `run id ${JSON.stringify(value)} is not {YYYYMMDD}-{HHMMSS}-{random6}`, {
      location: { field },
      hint: 'for example 20260115-143052-a7b3c9: a real UTC date and time, then six lowercase hex digits',
    });
  }
  return value;
}

/** A new run id for `now`, with `random` supplying the six hex digits (injectable for tests). */
export function newRunId(now: Date = new Date(), random: () => number = Math.random): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const day = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}`;
  const stamp = `${day}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  let hex = '';
  for (let i = 0; i < 6; i++) hex += Math.floor(random() * 16).toString(16);
  return `${stamp}-${hex}`;
}
