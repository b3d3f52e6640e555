/**
 * ISO 8601 date-times as the seed writes them (2026-01-15T14:30:52Z): a `T`, seconds, optional fraction, and a zone
 * (Z or ±hh:mm), and a real instant. SQLite's `datetime('now')` form (space, no zone) is not accepted in files
 * (docs/decisions.md verify-timestamps).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function isIsoDateTime(s: string): boolean {
  const m = ISO.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d &&
    date.getUTCHours() === h && date.getUTCMinutes() === mi && date.getUTCSeconds() === se;
}
