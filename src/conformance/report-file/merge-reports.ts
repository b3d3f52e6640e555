import { ProseError } from '../../core/errors.ts';
import { countOutcomes, sumMetrics, type CaseResult } from '../outcome.ts';
import type { Reporter } from '../reporters/reporter.ts';
import type { RunHeader } from '../run-suite.ts';
import type { NotJudged } from '../edition-runs.ts';
import { editionsByBackend } from './report-editions.ts';
import { requireComplete, type SavedReport, type SavedRun } from './read-report.ts';

/**
 * Joins the JSON Lines reports of `test --shard I/N` into the runs one unsharded run would have written: per backend,
 * one header (no shard), the first shard's capability probes, every case in suite order (`rank`), and a footer
 * recounted from the cases. Shards must be whole (a footer on every run), of one suite version, seed, decision set,
 * backend list and shard count, and cover 1..N once each with no case twice; anything else is an error naming the
 * file and what to do, never a merge with a hole in it.
 */
export function mergeReports(reports: readonly SavedReport[], rank: (id: string) => number): SavedRun[] {
  if (!reports.length) throw new ProseError('E_USAGE', 'report merge needs at least one report file');
  for (const r of reports) requireComplete(r);
  checkSameEditions(reports);
  checkAlike(reports);
  const ordered = orderShards(reports);
  const first = reports[0]!;
  return first.runs.map((lead, b) => {
    const results = backendResults(ordered, b, lead.header.backend.name);
    results.sort((x, y) => rank(x.id) - rank(y.id) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    const cases = ordered.reduce((n, r) => n + r.runs[b]!.header.cases, 0);
    const { shard: _shard, ...header } = lead.header;
    const head = ordered[0]!.runs[b]!;
    return {
      header: { ...header, cases } as RunHeader,
      line: lead.line,
      ...(head.capabilities ? { capabilities: head.capabilities } : {}),
      results,
      footer: { counts: countOutcomes(results), extra: sumMetrics(results) },
    };
  });
}

function shardOf(r: SavedReport): { index: number; count: number } {
  return r.runs[0]!.header.shard ?? { index: 1, count: 1 };
}

/** Every report one shard of one CI run: each file one shard, all of one suite version, seed, decisions, backends. */
function checkAlike(reports: readonly SavedReport[]): void {
  const first = reports[0]!;
  const want = fingerprint(first);
  for (const r of reports) {
    for (const run of r.runs) {
      const s = run.header.shard ?? { index: 1, count: 1 };
      if (s.index !== shardOf(r).index || s.count !== shardOf(r).count)
        throw refuse(r.file, run.line, 'its backends were run as different shards', 'pass one shard run per file');
    }
    const got = fingerprint(r);
    for (const k of Object.keys(want) as (keyof typeof want)[])
      if (got[k] !== want[k])
        throw refuse(
          r.file,
          r.runs[0]!.line,
          `its ${k} (${got[k]}) differs from ${first.file} (${want[k]})`,
          'merge only the shards of one CI run: the same suite version, seed, decisions, backends and shard count',
        );
  }
}

/**
 * Each backend judged in the same editions by every report: a shard of `filesystem` in v0 and one of it in the current
 * edition are two different runs, not two halves of one, whatever their case lists.
 */
function checkSameEditions(reports: readonly SavedReport[]): void {
  const first = reports[0]!;
  const want = editionsByBackend(first);
  for (const r of reports.slice(1)) {
    const got = editionsByBackend(r);
    for (const [backend, editions] of got) {
      const other = want.get(backend);
      if (other === undefined || other.editions === editions.editions) continue;
      throw new ProseError(
        'E_USAGE',
        `cannot merge this report: it judges backend ${backend} in edition ${editions.editions}, ` +
          `${first.file} judges it in edition ${other.editions}`,
        {
          location: { file: r.file, line: editions.line },
          hint: 'merge the shards of one run: every shard given the same --edition (report diff compares two editions)',
        },
      );
    }
  }
}

/** The reports in shard order, each shard of 1..N once. */
function orderShards(reports: readonly SavedReport[]): SavedReport[] {
  const first = reports[0]!;
  const count = shardOf(first).count;
  const byIndex = new Map<number, SavedReport>();
  for (const r of reports) {
    const i = shardOf(r).index;
    const dup = byIndex.get(i);
    if (dup) throw refuse(r.file, 1, `it is shard ${i}/${count}, like ${dup.file}`, 'pass each shard of the run once');
    byIndex.set(i, r);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new ProseError(
      'E_USAGE',
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merge would have a hole`,
      { location: { file: first.file }, hint: `pass the reports of all ${count} shards (a failed CI job: rerun it)` },
    );
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
}

/** Backend `b`'s cases from every shard, no case twice. */
function backendResults(ordered: readonly SavedReport[], b: number, backend: string): CaseResult[] {
  const seen = new Map<string, string>();
  const results: CaseResult[] = [];
  for (const r of ordered) {
    const run = r.runs[b]!;
    for (const res of run.results) {
      const other = seen.get(res.id);
      if (other !== undefined)
        throw refuse(
          r.file,
          run.line,
          `case ${res.id} on ${backend} is also in ${other}: the shards overlap`,
          'merge shards cut from one case list (the same --shard count, --durations report and filters)',
        );
      seen.set(res.id, r.file);
      results.push(res);
    }
  }
  return results;
}

/** Tells a reporter the saved runs as the runner would have, then finishes it. */
export function replayRuns(
  runs: readonly SavedRun[],
  reporter: Reporter,
  notJudged: readonly NotJudged[] = [],
): readonly CaseResult[] {
  const all: CaseResult[] = [];
  for (const n of notJudged) reporter.notJudged?.(n);
  for (const run of runs) {
    reporter.header(run.header);
    if (run.capabilities) reporter.capabilities(run.capabilities);
    for (const r of run.results) reporter.result(r);
    const counts = run.footer?.counts ?? countOutcomes(run.results);
    reporter.footer(run.header.backend.name, counts, run.footer?.extra ?? sumMetrics(run.results));
    all.push(...run.results);
  }
  reporter.finish(all);
  return all;
}

/** What must agree between shards of one run, each as a comparable string. */
function fingerprint(r: SavedReport) {
  const h = r.runs[0]!.header;
  return {
    'suite version': `${h.suite.name} ${h.suite.version}`,
    seed: String(h.seed),
    decisions: sorted(h.decisions),
    backends: r.runs.map((x) => x.header.backend.name).join(', '),
    'shard count': String(h.shard?.count ?? 1),
    probes: h.probes,
    // A quick shard beside a full one would pass a capped run off as a full one.
    quick: h.quick ? sorted(h.quick) : 'full run',
    // Every backend of a report must agree too: a hand-joined file is refused like a mixed set.
    'suite versions of its backends': [...new Set(r.runs.map((x) => x.header.suite.version))].join(', '),
    'seeds of its backends': [...new Set(r.runs.map((x) => x.header.seed))].join(', '),
    'decisions of its backends': [...new Set(r.runs.map((x) => sorted(x.header.decisions)))].join(' | '),
  };
}

const sorted = (o: object) =>
  Object.entries(o)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

function refuse(file: string, line: number, why: string, what: string): ProseError {
  return new ProseError('E_USAGE', `cannot merge this report: ${why}`, { location: { file, line }, hint: what });
}
