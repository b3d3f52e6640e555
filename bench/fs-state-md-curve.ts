// What the filesystem backend's VM events and resume cost on runs of 100 to 10,000 bindings and events (issue 35),
// without growing each run through the contract first: `bench --scale` grows one run call by call, and a run whose
// every VM event rewrites state.md (decision fs-state-md-rewrite-cost) passes its growth budget before 10,000 on a
// loaded machine. Here each size is laid out directly in the backend's own formats (N binding files, a state.md of
// N statement events rendered by the backend's renderer), then ONE long-lived backend instance is opened on it and
// each operation is timed `--samples` times (median), as `bench --scale` times them. Directory: PROSE_STATE_BENCH_TMP,
// else the OS's temp dir (a tmpfs there makes fsync free, leaving what the backend itself computes). Prints JSON.
//
//   node --import tsx bench/fs-state-md-curve.ts [--sizes 100,1000,10000] [--samples 20] [--out FILE]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { filesystemFactory } from '../src/backends/filesystem/index.ts';
import { RACY_MS } from '../src/backends/filesystem/file-memo.ts';
import { renderStateMd } from '../src/backends/filesystem/state-md.ts';
import { growthExponent, growthRatio } from '../src/bench/scale-fit.ts';
import { DEFAULT_DECISIONS } from '../src/core/decisions.ts';
import { formatBindingFile } from '../src/core/formats/binding-file.ts';
import type { ExecutionEvent } from '../src/core/model.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,10000' },
    samples: { type: 'string', default: '20' },
    out: { type: 'string' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const samples = Number(values.samples);
const VM = { role: 'vm' } as const;
/** The value and the 40-statement loop `bench --scale` grows its run with (src/bench/scale-ops.ts). */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(4);
const statement = (i: number): ExecutionEvent => ({
  type: 'statement',
  index: (i % 40) + 1,
  text: `let s${(i % 40) + 1} = session "step"`,
  status: 'completed',
});
const OPS = ['recordEvent', 'allocateAnon', 'resume', 'resolve', 'bind'] as const;
type Op = (typeof OPS)[number];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One size: the run laid out, a fresh instance opened on it and warmed, each operation timed in turn. */
async function measure(root: string, n: number): Promise<Record<Op, number>> {
  const env = { projectDir: join(root, 'p'), homeDir: join(root, 'h'), decisions: DEFAULT_DECISIONS, storageKey: root };
  mkdirSync(env.projectDir);
  mkdirSync(env.homeDir);
  const maker = await filesystemFactory.open(env);
  const { run } = await maker.call('createRun', { program: 'session "scale"\n' }, VM);
  await maker.close();
  const dir = join(env.projectDir, '.prose', 'runs', run);
  const index: { name: string; kind: 'let'; executionId: null }[] = [];
  for (let i = 0; i < n; i++) {
    const b = { name: `b${i}`, kind: 'let' as const, executionId: null, source: '', value: VALUE };
    writeFileSync(join(dir, 'bindings', `b${i}.md`), formatBindingFile(b));
    index.push({ name: b.name, kind: b.kind, executionId: null });
  }
  const at = '2026-12-05T00:00:00Z';
  const doc = { runId: run, programPath: 'program.prose', status: 'running' as const, started: at, updated: at };
  const events = Array.from({ length: n }, (_, i) => statement(i));
  writeFileSync(join(dir, 'state.md'), renderStateMd({ ...doc, events }, { bindings: index, agents: [] }));
  await new Promise((r) => setTimeout(r, RACY_MS + 50)); // every file settled, as in a run that grew over time
  const backend = await filesystemFactory.open(env);
  let k = n;
  const call: Record<Op, () => Promise<unknown>> = {
    recordEvent: () => backend.call('recordEvent', { run, event: statement(k++) }, VM),
    allocateAnon: () => backend.call('allocateAnon', { run }, VM),
    resume: () => backend.call('resume', { run }, VM),
    resolve: () => backend.call('resolve', { run, name: `b${(k * 7919) % n}` }, VM),
    bind: () => {
      const name = `new${k++}`;
      return backend.call('bind', { run, name, kind: 'let', value: VALUE }, { role: 'subagent', binding: name });
    },
  };
  const times: Record<Op, number[]> = { recordEvent: [], allocateAnon: [], resume: [], resolve: [], bind: [] };
  await call.resume(); // warm: the instance's caches filled once, as a long-lived VM's are
  for (let s = 0; s < samples; s++)
    for (const op of OPS) {
      const t = performance.now();
      await call[op]();
      times[op].push(performance.now() - t);
    }
  await backend.close();
  return Object.fromEntries(OPS.map((op) => [op, median(times[op])])) as Record<Op, number>;
}

const base = process.env.PROSE_STATE_BENCH_TMP || tmpdir();
const points: { size: number; ms: Record<Op, number> }[] = [];
const loadBefore = loadavg()[0]!;
for (const n of sizes) {
  const root = mkdtempSync(join(base, 'fs-curve-'));
  try {
    points.push({ size: n, ms: await measure(root, n) });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
const curve = (op: Op) => points.map((p) => ({ size: p.size, ms: p.ms[op] }));
const fit = Object.fromEntries(
  OPS.map((op) => [op, { growth: growthRatio(curve(op)), exponent: growthExponent(curve(op)) }]),
);
const text = `${JSON.stringify({ dir: base, samples, load: [loadBefore, loadavg()[0]], points, fit }, null, 2)}\n`;
process.stdout.write(text);
if (values.out) writeFileSync(values.out, text);
