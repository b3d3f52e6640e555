/**
 * Writes docs/bench.md's fingerprint ratio table from ONE saved run (`bench --format json`), so every ratio in it
 * comes from the same run, beside the limit, the parallel limit and a candidate measured with it.
 *
 *   node --import tsx scripts/gen-bench-doc.ts bench/run-X.json   # regenerate the table from that run
 *   node --import tsx scripts/gen-bench-doc.ts                    # again, from the run the table names
 *   node --import tsx scripts/gen-bench-doc.ts --check            # exit 1 if the table is not that run's (npm run check)
 *
 * The table sits between `<!-- bench-table: RUN ... -->` and `<!-- /bench-table -->`; RUN is the run's path from
 * the checkout's root. A run without the parallel limit, or without a candidate that printed the right address on
 * every workload, is refused: the table must show both.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSkipped, type BenchReport, type WorkloadResult } from '../src/bench/bench-report.ts';
import { readerCalls } from '../src/bench/format-text.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'docs/bench.md');
const BLOCK = /<!-- bench-table: (\S+) [^\n]*-->\n[\s\S]*?<!-- \/bench-table -->/;

const x = (n: number): string => `${n.toFixed(2)}x`;
const cell = (ms: number, w: WorkloadResult): string => x(ms / w.limitMs);

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`]
    .concat(rows.map((r) => `| ${r.join(' | ')} |`))
    .join('\n');
}

/** Why `r` cannot make the table, or undefined when it can. */
export function unfit(r: BenchReport): string | undefined {
  if (r.workloads.length === 0) return 'it has no fingerprint workloads';
  if (r.workloads.some((w) => !w.parallel)) return 'it has no parallel limit (a report from before issue 20)';
  const ok = (name: string) => r.workloads.every((w) => w.candidates?.[name]?.verdict === 'ok');
  const names = Object.keys(r.workloads[0]!.candidates ?? {});
  if (!names.some(ok)) return 'no candidate printed the right address on every workload (give one with --candidate)';
  return undefined;
}

export function renderTable(r: BenchReport, runPath: string): string {
  const why = unfit(r);
  if (why) throw new Error(`${runPath} cannot make the table: ${why}`);
  const env = r.environment;
  const peers = [...new Set(r.workloads.flatMap((w) => Object.keys(w.peers)))];
  const candidates = Object.keys(r.workloads[0]!.candidates!);
  const threads = r.workloads[0]!.parallel!.limit.threads;
  const target = (w: WorkloadResult) => r.targets.find((t) => t.id === `fingerprint-${w.name}-all-cores`);
  const load =
    env.loadAverageStart === undefined
      ? 'load average not recorded'
      : `load average (1, 5, 15 min) ${env.loadAverageStart} at the start, ${env.loadAverageEnd ?? '?'} at the end`;
  const rows = r.workloads.map((w) => {
    const p = w.parallel!;
    const goal = target(w);
    return [
      w.description,
      `${w.limitMs.toFixed(1)} ms`,
      `**${x(w.ratios.limit!)}**${w.fingerprint.auto ? ` (readers in ${readerCalls(w.fingerprint.auto)}/${w.fingerprint.auto.calls})` : ''}`,
      `${x(p.ratios['allCores.limit'])} (${p.allCores.workerBatches}/${p.allCores.batches})`,
      cell(p.limit.ms, w),
      ...candidates.map((c) => {
        const v = w.candidates![c]!;
        return v.verdict === 'ok' ? cell(v.timing.ms, w) : v.verdict.toUpperCase();
      }),
      ...peers.map((name) => {
        const v = w.peers[name];
        return !v || isSkipped(v) ? 'skipped' : cell(v.ms, w);
      }),
      goal ? `${/at most ([\d.]+x)/.exec(goal.description)?.[1] ?? '?'}: ${goal.met ? 'met' : 'NOT met'}` : 'n/a',
    ];
  });
  const head = [
    'workload',
    'limit (read, then hash)',
    'ours (calls on reader threads)',
    'ours, readers forced (batches by readers)',
    `parallel limit (${threads} threads read, one hashes)`,
    ...candidates.map((c) => `candidate ${c}`),
    ...peers.map((p) => p.replaceAll('|', '\\|')),
    'goal (issue 20)',
  ];
  const memory = isSkipped(r.memory)
    ? `Peak memory: not measured in this run (${r.memory.skipped}).`
    : `Peak RSS growth over an empty tree (bound ${r.memory.boundMiB} MiB): ${r.memory.trees
        .map((t) => `${t.tree} ${t.growthMiB.toFixed(1)} MiB`)
        .join(', ')}.`;
  const cand = candidates.map((c) => `\`${c}\` = \`${r.workloads[0]!.candidates![c]!.source}\``).join(', ');
  return [
    `<!-- bench-table: ${runPath} (written by scripts/gen-bench-doc.ts from that run: regenerate, do not edit) -->`,
    `\`${runPath}\`: \`bench\` (${r.profile} profile) started ${r.startedAt}, ${(r.durationMs / 1000).toFixed(0)} s; ` +
      `${env.cpu}, ${env.cores} cores, Node ${env.node}; ${load}. Each figure is that time over the single-thread ` +
      `limit (a read-only walk, then the raw hash of the same bytes, measured in the same run); lower is better. ` +
      `Ours is what \`prose-state fingerprint\` runs (\`--threads auto\`), in a process that has fingerprinted before ` +
      `(its reader threads started); candidates: ${cand}.`,
    '',
    table(head, rows),
    '',
    memory,
    '<!-- /bench-table -->',
  ].join('\n');
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const given = argv.find((a) => !a.startsWith('--'));
  const doc = readFileSync(DOC, 'utf8');
  const m = BLOCK.exec(doc);
  if (!m) {
    console.error('docs/bench.md has no <!-- bench-table: RUN --> ... <!-- /bench-table --> block');
    return 2;
  }
  const runPath = given ?? m[1]!;
  let table: string;
  try {
    table = renderTable(JSON.parse(readFileSync(join(ROOT, runPath), 'utf8')) as BenchReport, runPath);
  } catch (err) {
    console.error(`gen-bench-doc: ${(err as Error).message}`);
    return 2;
  }
  const next = doc.replace(BLOCK, () => table);
  if (check) {
    if (next === doc) return 0;
    console.error(`docs/bench.md's table is not ${runPath}'s: run node --import tsx scripts/gen-bench-doc.ts`);
    return 1;
  }
  writeFileSync(DOC, next);
  console.error(`docs/bench.md: table from ${runPath}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
