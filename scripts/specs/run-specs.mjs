#!/usr/bin/env node
// The spec phase on every core (`npm run spec`; docs/running.md): the spec files under the given folders (default
// spec/) spread over long-lived worker processes, longest first by spec/durations.json, each file's output printed
// whole as it finishes, then the totals as `N passed, N failed, N skipped` alone on the last line.
//
//   node scripts/specs/run-specs.mjs [folder or file ...] [--jobs N] [--quick [--changed]] [--record-durations] [--list]
//                                    [--durations FILE]
//
// --jobs N (or PROSE_STATE_SPEC_JOBS): workers, default one more than the machine's cores. --quick: only the files
// measured at or under QUICK_SECONDS; --changed adds those the working tree's change touches (git diff against HEAD).
// --record-durations: write each file's measured seconds (wall, and CPU with its child processes) into the durations
// file. --list: print the plan and run nothing. --durations FILE: another durations file than spec/durations.json (the runner's own spec gives it fixtures).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closingLine, countOutput, planRun, quickFiles, touchedSpecs, withoutTotals } from './plan.mjs';
import { runPlan } from './spec-workers.mjs';

// The quick tier's limit per file, in seconds as spec/durations.json measured them (docs/running.md).
const QUICK_SECONDS = 1;
const PATTERN = /\.spec\.ts$/i;

function usage(message) {
  console.error(`run-specs: ${message}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { paths: [], jobs: process.env.PROSE_STATE_SPEC_JOBS, durations: 'spec/durations.json' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--jobs') opts.jobs = argv[++i];
    else if (a === '--quick') opts.quick = true;
    else if (a === '--changed') opts.changed = true;
    else if (a === '--record-durations') opts.record = true;
    else if (a === '--list') opts.list = true;
    else if (a === '--durations') opts.durations = argv[++i];
    else if (a.startsWith('-')) usage(`unknown option ${JSON.stringify(a)}`);
    else opts.paths.push(a);
  }
  // One worker more than the cores: many specs wait on the processes they start (binaries, writers, plugins), and a
  // third worker fills that time. Quiet 2-core machine, every spec: 1 worker 286.5 s, 2 workers 174.0 s (0.61x),
  // 3 workers 152.0 s (0.53x); docs/running.md.
  const jobs = opts.jobs === undefined ? availableParallelism() + 1 : Number(opts.jobs);
  if (!Number.isInteger(jobs) || jobs < 1)
    usage(`--jobs (PROSE_STATE_SPEC_JOBS) takes a whole number >= 1, got ${opts.jobs}`);
  if (!opts.paths.length) opts.paths.push('spec');
  return { ...opts, jobs };
}

/** The spec files under each path, as uvu's parse finds them (node_modules and dot-git skipped), in name order. */
function discover(paths) {
  const found = [];
  const walk = (p) => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules' && !name.startsWith('.git')) walk(join(p, name));
    } else if (PATTERN.test(p)) found.push(relative('.', p));
  };
  for (const p of paths) {
    if (!existsSync(p)) usage(`no such file or folder: ${p}`);
    walk(p);
  }
  return [...new Set(found)].sort((a, b) => a.localeCompare(b));
}

/** What the working tree changes against HEAD, untracked files included; nothing outside a git checkout. */
function changedFiles() {
  const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    return [
      ...git('diff', '--name-only', 'HEAD').split('\n'),
      ...git('ls-files', '--others', '--exclude-standard').split('\n'),
    ].filter(Boolean);
  } catch {
    console.error('run-specs: not a git checkout (or no git): --changed adds no file');
    return [];
  }
}

function select(opts, durations) {
  const files = discover(opts.paths);
  if (!opts.quick) return files;
  const touched = opts.changed
    ? touchedSpecs(changedFiles(), new Map(files.map((f) => [f, readFileSync(f, 'utf8')])))
    : new Set();
  return quickFiles(files, durations, QUICK_SECONDS, touched);
}

/** Each measured file's wall seconds (what the plan orders by) and CPU seconds (what the phase costs on few cores). */
function record(path, durations, measured) {
  const seconds = { ...durations.seconds };
  const cpu = { ...durations.cpu };
  const round = (s) => Math.round(s * 100) / 100;
  for (const [file, m] of measured) {
    seconds[file] = round(m.seconds);
    if (m.cpu === undefined) delete cpu[file];
    else cpu[file] = round(m.cpu);
  }
  const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path, JSON.stringify({ ...durations, seconds: sorted(seconds), cpu: sorted(cpu) }, null, 2) + '\n');
  console.log(`run-specs: recorded ${measured.size} files' seconds in ${path}`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const durations = JSON.parse(readFileSync(opts.durations, 'utf8'));
  const plan = planRun(select(opts, durations), durations);
  if (opts.list) {
    for (const f of [...plan.shared, ...plan.alone]) console.log(`${plan.estimate(f).toFixed(2)}\t${f}`);
    return;
  }
  const started = performance.now();
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const failing = [];
  const measured = new Map();
  await runPlan(plan, opts.jobs, (file, { output, seconds, cpu, broke }) => {
    const counts = countOutput(output, broke);
    for (const k of Object.keys(totals)) totals[k] += counts[k];
    if (counts.failed) failing.push({ file, output });
    measured.set(file, { seconds, cpu });
    // uvu ends a file's last line with a colour reset after its newline: the file's time goes on that line.
    const text = withoutTotals(output)
      .trimEnd()
      .replace(/\n((?:\x1b\[[0-9;]*m)+)$/, '$1');
    const cost = cpu === undefined ? '' : `, ${cpu.toFixed(1)} s CPU`;
    process.stdout.write(`${text}  [${seconds.toFixed(1)} s${cost}]\n\n`);
  });
  const ran = measured.size;
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`specs: ${ran} files on ${Math.min(opts.jobs, ran)} workers in ${wall} s`);
  // A CI log keeps only its tail: each failing file's own output is repeated here, next to the verdict.
  for (const f of failing) console.log(`--- failed: ${f.file}\n${withoutTotals(f.output).trimEnd()}\n`);
  if (failing.length) console.log(`failing files:\n${failing.map((f) => `  ${f.file}`).join('\n')}`);
  console.log(closingLine(totals));
  if (ran === 0) {
    console.error(`run-specs: no spec file ran (none matching ${PATTERN} under ${opts.paths.join(', ')})`);
    process.exit(1);
  }
  if (opts.record) record(opts.durations, durations, measured);
  process.exitCode = totals.failed ? 1 : 0;
}

await main();
