import { isSkipped, type BenchReport, type CandidateResult, type WorkloadResult } from './bench-report.ts';
import type { RatioChange } from './compare-reports.ts';
import { formatScale } from './format-scale.ts';
import { table } from './markdown-table.ts';

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** The human report: Markdown tables (so a run pastes straight into docs/bench.md). */
export function formatText(r: BenchReport): string {
  const out: string[] = [];
  out.push(`prose-state bench (${r.profile}), ${r.startedAt}, ${f1(r.durationMs / 1000)} s`);
  out.push(
    Object.entries(r.environment)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
    '',
  );
  // A --scale run measures nothing else: its other sections are all skipped.
  if (r.scale) return `${[...out, ...formatScale(r.scale)].join('\n')}\n`;
  out.push(...formatFingerprints(r));
  out.push(...formatReceipts(r.receipts));
  out.push(...formatBackends(r.backends));
  if (r.sqlitePeers !== undefined) out.push(...formatSqlitePeers(r.sqlitePeers));
  out.push(...formatMemory(r.memory));
  out.push(formatStartup(r.startup), '');
  out.push('Targets', '');
  out.push(
    table(
      ['target', 'met', 'actual'],
      r.targets.map((t) => [t.description, t.met === null ? 'n/a' : t.met ? 'yes' : 'NO', t.actual]),
    ),
  );
  return `${out.join('\n')}\n`;
}

/** Per workload: ours, the limit, each peer and candidate; then the skipped peers, all cores, failed candidates. */
function formatFingerprints(r: BenchReport): string[] {
  const out = ['Fingerprinting (median ms; ratio = our time / that time, lower is better)', ''];
  const peerNames = [...new Set(r.workloads.flatMap((w) => Object.keys(w.peers)))];
  const candidateNames = [...new Set(r.workloads.flatMap((w) => Object.keys(w.candidates ?? {})))];
  out.push(
    table(
      [
        ...['workload', 'ours ms', 'on readers', 'files/s', 'MB/s', 'walk ms', 'hash ms', 'vs limit'],
        ...peerNames.map((p) => `vs ${p}`),
        ...candidateNames.map((c) => `candidate ${c}`),
      ],
      r.workloads.map((w) => [
        w.description,
        f1(w.fingerprint.ms),
        // How many calls of ours `auto` put on reader threads (it asks for a free core each time).
        w.fingerprint.auto ? `${readerCalls(w.fingerprint.auto)}/${w.fingerprint.auto.calls}` : '-',
        int(w.fingerprint.filesPerSec),
        f1(w.fingerprint.mbPerSec),
        f1(w.walk.ms),
        f1(w.rawHash.ms),
        `${f2(w.ratios.limit!)}x`,
        ...peerNames.map((p) => peerCell(w, p)),
        ...candidateNames.map((name) => candidateCell(w.candidates?.[name])),
      ]),
    ),
    '',
  );
  for (const w of r.workloads)
    for (const [p, v] of Object.entries(w.peers))
      if (isSkipped(v)) out.push(`peer ${p} skipped on ${w.name}: ${v.skipped}`);
  out.push(...formatAllCores(r));
  if (candidateNames.length > 0)
    out.push('', "Candidates: ms is the candidate's median; its ratios are its time / the limit and / ours", '');
  for (const w of r.workloads)
    for (const [name, c] of Object.entries(w.candidates ?? {}))
      if (c.verdict !== 'ok') {
        out.push(`candidate ${name} ${c.verdict.toUpperCase()} on ${w.name} (not timed): ${c.detail}`);
        if (c.stderr) out.push(...c.stderr.split('\n').map((l) => `    stderr: ${l}`));
      }
  return out;
}

function peerCell(w: WorkloadResult, p: string): string {
  const peer = w.peers[p];
  return !peer || isSkipped(peer) ? 'skipped' : `${f2(w.ratios[p]!)}x (${f1(peer.ms)} ms)`;
}

function candidateCell(c: CandidateResult | undefined): string {
  if (!c) return '-';
  return c.verdict === 'ok'
    ? `${f1(c.timing.ms)} ms: ${f2(c.ratios.limit)}x limit, ${f2(c.ratios.ours)}x ours`
    : c.verdict.toUpperCase();
}

function formatReceipts(x: BenchReport['receipts']): string[] {
  if (isSkipped(x)) return [`Receipts: skipped: ${x.skipped}`, ''];
  return [
    `Receipts (${int(x.receipts)} Reactor receipts in ${x.chains} chains; floor = JSON.stringify + sha256)`,
    '',
    table(
      ['task', 'ms', 'receipts/s', 'vs floor'],
      [
        ['canonical hash', f2(x.hash.ms), int(x.hash.receiptsPerSec), `${f2(x.ratios.hash)}x`],
        ['chain verify', f2(x.chain.ms), int(x.chain.receiptsPerSec), `${f2(x.ratios.chain)}x`],
        ['floor', f2(x.floor.ms), int(x.floor.receiptsPerSec), '1.00x'],
      ],
    ),
    '',
  ];
}

const BACKENDS_HEAD =
  'Backends (one binding of 1.1 KB; a commit is a new two-file world-model version; ' +
  "floor = atomic fsync write / readFileSync; vs filesystem = that time / our filesystem backend's, same run)";

function formatBackends(backends: BenchReport['backends']): string[] {
  if (backends.length === 0) return ['Backends: none measured', ''];
  const x = (n: number | undefined) => (n === undefined ? '-' : `${f2(n)}x`);
  const out = [
    BACKENDS_HEAD,
    '',
    table(
      [
        ...['backend', 'bind ops/s', 'resolve ops/s', 'commit ops/s', 'write vs floor', 'read vs floor'],
        ...['commit vs floor', 'write vs filesystem', 'read vs filesystem', 'commit vs filesystem'],
      ],
      backends.map((b) =>
        isSkipped(b)
          ? [b.name, b.failed ? 'FAILED' : 'skipped', '', '', '', '', '', '', '', '']
          : [
              b.name,
              int(b.write.opsPerSec),
              int(b.read.opsPerSec),
              b.commit ? int(b.commit.opsPerSec) : '-',
              x(b.ratios.write),
              x(b.ratios.read),
              x(b.ratios.commit),
              x(b.vsFilesystem?.write),
              x(b.vsFilesystem?.read),
              x(b.vsFilesystem?.commit),
            ],
      ),
    ),
    '',
  ];
  for (const b of backends)
    if (isSkipped(b)) out.push(`backend ${b.name} ${b.failed ? 'FAILED' : 'skipped'}: ${b.skipped}`);
  if (backends.some(isSkipped)) out.push('');
  return out;
}

function formatMemory(m: BenchReport['memory']): string[] {
  if (isSkipped(m)) return [`Peak memory: skipped: ${m.skipped}`, ''];
  return [
    `Peak RSS of a fingerprint process (bound: +${m.boundMiB} MiB)`,
    '',
    table(
      ['tree', 'files', 'MB', 'peak RSS MiB', 'growth MiB'],
      m.trees.map((t) => [t.tree, int(t.files), f1(t.bytes / 1e6), f1(t.peakRssMiB), f1(t.growthMiB)]),
    ),
    '',
  ];
}

function formatStartup(s: BenchReport['startup']): string {
  if (isSkipped(s)) return `Startup: skipped: ${s.skipped}`;
  const binary = `binary --version (Node ${s.binaryNodeVersion}) ${f1(s.binaryMs)} ms`;
  const node = `${s.node} -e 0 (${s.nodeVersion}) ${f1(s.nodeMs)} ms`;
  const caveat = s.comparable ? '' : ': not comparable, different Node versions (give --node)';
  return `Startup: ${binary}, ${node}: ${f2(s.ratio)}x (medians of ${s.runs})${caveat}`;
}

/** Issue 20: the parallel limit beside the single-thread one, and our fingerprint forced onto all cores. */
function formatAllCores(r: BenchReport): string[] {
  const rows = r.workloads.filter((w) => w.parallel);
  if (rows.length === 0) return [];
  const threads = rows[0]!.parallel!.limit.threads;
  return [
    '',
    `All cores (parallel limit = ${threads} threads reading their share while one hashes the bytes in memory, ` +
      'threads started beforehand; all cores = our fingerprint with the parallel reader forced; lower is better)',
    '',
    table(
      [
        ...['workload', 'limit ms', 'parallel limit ms', 'ours vs limit', 'ours vs parallel limit'],
        ...['all cores ms', 'all cores vs limit', 'vs parallel limit', 'batches by readers', 'read-ahead cap'],
      ],
      rows.map((w) => {
        const p = w.parallel!;
        return [
          w.description,
          f1(w.limitMs),
          f1(p.limit.ms),
          `${f2(w.ratios.limit!)}x`,
          `${f2(p.ratios['ours.parallelLimit'])}x`,
          f1(p.allCores.ms),
          `${f2(p.ratios['allCores.limit'])}x`,
          `${f2(p.ratios['allCores.parallelLimit'])}x`,
          `${p.allCores.workerBatches}/${p.allCores.batches}${p.allCores.stolen ? ` (${p.allCores.stolen} re-read)` : ''}`,
          `${f1(p.allCores.capBytes / 1048576)} MiB`,
        ];
      }),
    ),
    '',
  ];
}

function formatSqlitePeers(sp: NonNullable<BenchReport['sqlitePeers']>): string[] {
  if (isSkipped(sp)) return [`sqlite backend vs the sqlite3 CLI: skipped: ${sp.skipped}`, ''];
  const writes = `${int(sp.bindings)} bindings of ${int(sp.valueBytes)} B, root scope, one commit each`;
  const engine = sp.engine ? `, engine ${sp.engine}` : '';
  const reads = `${int(sp.reads)} reads resolved from depth ${sp.readDepth}`;
  const out = [`sqlite backend vs the sqlite3 CLI (${writes}${engine}; ${reads}; ratio = our time / that time)`, ''];
  const row = (label: string, ours: number, key: 'cli-per-statement' | 'cli-batched' | 'cli-json-read'): string[] => {
    const p = sp.peers[key];
    return isSkipped(p)
      ? [label, 'skipped', '', p.skipped]
      : [
          label,
          f1(p.opsPerSec),
          f1(ours),
          `${f2(sp.ratios[key]!)}x (${sp.ratios[key]! <= 1 ? `${f1(1 / sp.ratios[key]!)}x faster` : `${f1(sp.ratios[key]!)}x slower`})`,
        ];
  };
  out.push(
    table(
      ['peer', 'peer ops/s', 'ours ops/s', 'ours vs peer'],
      [
        row('writes: sqlite3 per INSERT', sp.ours.write.opsPerSec, 'cli-per-statement'),
        row('writes: sqlite3 batched', sp.ours.write.opsPerSec, 'cli-batched'),
        row('reads: sqlite3 -json per query', sp.ours.read.opsPerSec, 'cli-json-read'),
      ],
    ),
    '',
  );
  const engines = Object.entries(sp.engines ?? {});
  if (engines.length > 1) {
    const x = (v: number | undefined) => (v === undefined ? '-' : `${f2(v)}x`);
    out.push(
      "each engine in the same turns (ratio = that engine's time / the peer's):",
      '',
      table(
        ['engine', 'writes/s', 'vs batched', 'vs per INSERT', 'reads/s', 'vs -json'],
        engines.map(([name, e]) => [
          name === sp.engine ? `${name} (default)` : name,
          f1(e.write.opsPerSec),
          x(e.ratios['cli-batched']),
          x(e.ratios['cli-per-statement']),
          f1(e.read.opsPerSec),
          x(e.ratios['cli-json-read']),
        ]),
      ),
      '',
    );
  }
  return out;
}

export function formatComparison(changes: readonly RatioChange[], tolerance: number): string {
  const rows = changes.map((c) => [
    c.key,
    f2(c.baseline),
    Number.isNaN(c.current) ? '-' : f2(c.current),
    Number.isNaN(c.change) ? '-' : `${c.change >= 0 ? '+' : ''}${(c.change * 100).toFixed(1)}%`,
    c.verdict,
  ]);
  const bad = changes.filter((c) => c.verdict === 'regressed');
  // The regressions again, one line each, so a CI log's last lines say what grew and from what to what.
  const named = bad.map(
    (c) => `regressed: ${c.key} ${f2(c.baseline)}x -> ${f2(c.current)}x (+${(c.change * 100).toFixed(1)}%)`,
  );
  const head = `Compared with the baseline (tolerance ${(tolerance * 100).toFixed(0)}% on ratios)`;
  const verdict = bad.length === 0 ? 'no ratio regressed' : [`${bad.length} ratio(s) regressed`, ...named].join('\n');
  return `\n${head}\n\n${table(['ratio', 'baseline', 'now', 'change', 'verdict'], rows)}\n\n${verdict}\n`;
}

/** Calls of ours that `auto` put on a reader thread, either way. */
export function readerCalls(auto: { parallel: number; readAhead?: number }): number {
  return auto.parallel + (auto.readAhead ?? 0);
}
