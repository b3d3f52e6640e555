#!/usr/bin/env node
// How long the conformance suite takes: `npm start` (test --backend all) with --jobs 1 and with the default jobs,
// and the quick loop on filesystem and on sqlite, in rounds of paired runs. With --before DIR (a checkout of an
// older commit with its node_modules) that checkout's `npm start` is timed in each round too, for the before/after
// ratio. Prints one JSON document: each run's wall and CPU seconds (this process's waited-for children, from
// /proc/self/stat), the 1-minute load average when it started, its exit code and case counts, and the ratios of the
// medians. No figure here is a pass or a fail: docs/running.md says what was measured and under what load.
// --before DIR times the quick runs in that checkout too, each just before ours in the same round. --suite DIR points
// this checkout's full runs at another suite directory (the older checkout's conformance/, for the same cases).
//
//   node bench/suite-time.mjs [--rounds N] [--only full|quick] [--before DIR] [--suite DIR] [--no-sequential] [--out FILE]
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
    before: { type: 'string' },
    suite: { type: 'string' },
    out: { type: 'string' },
    // Leaves out the --jobs 1 full run (the before/after ratio needs only the default): a quiet round costs less.
    'no-sequential': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
if (!(Number.isSafeInteger(rounds) && rounds > 0)) throw new Error('--rounds takes a whole number above 0');
// The pinned Node, as npm start runs it.
const node = join(here, 'node_modules', '.bin', 'node');
const cli = (dir, ...args) => ({
  dir,
  argv: [join(dir, 'bin', 'prose-state.js'), 'test', '--reporter', 'json', ...args],
});
const seed = ['--seed', '1'];
const suite = values.suite ? ['--suite', resolve(values.suite)] : [];
const before = values.before ? resolve(values.before) : undefined;
const full = [
  ...(before ? [['full, before', cli(before, '--backend', 'all', ...seed)]] : []),
  ...(values['no-sequential']
    ? []
    : [['full --jobs 1', cli(here, '--backend', 'all', '--jobs', '1', ...suite, ...seed)]]),
  [`full (default --jobs ${availableParallelism()})`, cli(here, '--backend', 'all', ...suite, ...seed)],
];
const quick = ['filesystem', 'sqlite'].flatMap((b) => [
  ...(before ? [[`quick ${b}, before`, cli(before, '--quick', '--backend', b, ...seed)]] : []),
  [`quick ${b}`, cli(here, '--quick', '--backend', b, ...seed)],
]);
const workloads = values.only === 'full' ? full : values.only === 'quick' ? quick : [...full, ...quick];

/** CPU seconds of every waited-for child of this process so far (cutime + cstime, in clock ticks). */
function childCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const runs = [];
for (let r = 1; r <= rounds; r++) {
  for (const [name, { dir, argv }] of workloads) {
    const load = loadavg()[0];
    const cpu0 = childCpu();
    const t0 = performance.now();
    const p = spawnSync(node, argv, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    const wall = (performance.now() - t0) / 1000;
    // A run that did not pass names what did not: a bench figure of a failing run is no figure.
    const notPassed = p.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"type":"case"') && /"status":"(failed|errored|xpassed)"/.test(l))
      .map((l) => {
        const c = JSON.parse(l);
        return `${c.backend} ${c.id} ${c.status}: ${(c.message ?? c.error?.message ?? '').slice(0, 300)}`;
      });
    const footers = p.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"type":"footer"'))
      .map((l) => JSON.parse(l));
    const run = {
      name,
      round: r,
      wallS: +wall.toFixed(1),
      cpuS: +(childCpu() - cpu0).toFixed(1),
      load1m: +load.toFixed(2),
      exit: p.status,
      cases: footers.reduce((a, f) => a + f.counts.total, 0),
      passed: footers.reduce((a, f) => a + f.counts.passed, 0),
      ...(notPassed.length ? { notPassed } : {}),
    };
    runs.push(run);
    process.stderr.write(`${JSON.stringify(run)}\n`);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const medians = Object.fromEntries(
  workloads.map(([name]) => {
    const mine = runs.filter((x) => x.name === name);
    return [name, { wallS: median(mine.map((x) => x.wallS)), cpuS: median(mine.map((x) => x.cpuS)) }];
  }),
);
const ratio = (a, b) => (medians[a] && medians[b] ? +(medians[a].wallS / medians[b].wallS).toFixed(2) : undefined);
const dflt = full.at(-1)[0];
const doc = {
  machine: { cores: availableParallelism(), node: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() },
  rounds,
  runs,
  medians,
  ratios: {
    'full --jobs 1 / default': ratio('full --jobs 1', dflt),
    ...(before
      ? {
          'full before / default': ratio('full, before', dflt),
          'quick filesystem before / after': ratio('quick filesystem, before', 'quick filesystem'),
          'quick sqlite before / after': ratio('quick sqlite, before', 'quick sqlite'),
        }
      : {}),
  },
};
const text = JSON.stringify(doc, null, 2) + '\n';
if (values.out) writeFileSync(values.out, text);
process.stdout.write(text);
