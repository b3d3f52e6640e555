// The date-time forms the seeds write and accept, in one place for the shared semantics, the stores and the session checks.

/** A date and time with a zone, as segment files carry them (seconds required, fractions and offsets allowed). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The pattern, and a real calendar date and clock time (2026-13-45T25:61:61Z is refused). */
export function isIsoDateTime(s: string): boolean {
  const m = ISO_8601.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = s.slice(0, 19).split(/[-T:]/).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const t = new Date(Date.UTC(2000, mo - 1, d, h, mi, se));
  // Date.UTC reads years 0-99 as 1900-1999; setting the year afterwards keeps 0001-0099 (and leap days) exact.
  t.setUTCFullYear(y, mo - 1, d);
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === se
  );
}

/** ISO 8601 in UTC to the second, as the seed's examples write it: 2026-01-15T14:30:52Z. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * ISO 8601 date and time with a zone as a subagent may write it in a segment (the seed's example:
 * 2026-01-15T14:32:15Z); looser than isIsoDateTime (seconds optional, +hhmm allowed), as the session checks have it.
 */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
