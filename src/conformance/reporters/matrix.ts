import type { CaseResult, Status } from '../outcome.ts';
import type { RunHeader } from '../run-suite.ts';

/** Areas x backends, each cell the counts of that area on that backend. The one table every human report shows. */
export interface Matrix {
  areas: string[];
  backends: string[];
  cell(area: string, backend: string): Record<Status, number> & { total: number };
}

export function buildMatrix(all: readonly CaseResult[]): Matrix {
  const areas = [...new Set(all.map((r) => r.area))].sort();
  const backends = [...new Set(all.map((r) => r.backend))];
  const cells = new Map<string, Record<Status, number> & { total: number }>();
  for (const r of all) {
    const key = `${r.area}\u0000${r.backend}`;
    const c = cells.get(key) ?? { passed: 0, failed: 0, skipped: 0, errored: 0, xfailed: 0, xpassed: 0, total: 0 };
    c[r.outcome.status] += 1;
    c.total += 1;
    cells.set(key, c);
  }
  const empty = { passed: 0, failed: 0, skipped: 0, errored: 0, xfailed: 0, xpassed: 0, total: 0 };
  return { areas, backends, cell: (a, b) => cells.get(`${a}\u0000${b}`) ?? empty };
}

/**
 * The matrix's edition row: the edition each backend column was judged in, from the runs' headers (a column is a
 * backend in one edition, `NAME` for v0 and `NAME@EDITION` otherwise). Absent when no header was seen.
 */
export function editionRow(backends: readonly string[], headers: readonly RunHeader[]): string[] | undefined {
  if (!headers.length) return undefined;
  const of = new Map(headers.map((h) => [h.backend.name, h.edition]));
  return backends.map((b) => of.get(b) ?? '-');
}

/** `12/14 2F` style: passed of run, then the letters that need attention. */
export function cellText(c: Record<Status, number> & { total: number }): string {
  if (c.total === 0) return '-';
  const run = c.total - c.skipped;
  const marks = [
    c.failed && `${c.failed}F`,
    c.errored && `${c.errored}E`,
    c.xpassed && `${c.xpassed}X!`,
    c.xfailed && `${c.xfailed}x`,
    c.skipped && `${c.skipped}s`,
  ].filter(Boolean);
  return `${c.passed}/${run}${marks.length ? ' ' + marks.join(' ') : ''}`;
}
