import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv } from '../core/backend.ts';
import { resolveDecisions } from '../core/decisions.ts';
import type { Edition } from '../core/editions.ts';
import type { Profile, ScaleBackend, ScaleOutcome, ScalePoint, ScaleResult, Timing } from './bench-report.ts';
import { isPluginSpec, type OpenBackend } from './bench-backends.ts';
import { heldMiB } from './held-memory.ts';
import { measureInterleavedAsync } from './measure.ts';
import { growthExponent, growthRatio } from './scale-fit.ts';
import { SCALE_OPS, ScaleRun, type ScaleOp } from './scale-ops.ts';

/** Run sizes (bindings, and as many statement events), samples per operation at each, and the growth budget. */
export interface ScalePlan {
  sizes: number[];
  samples: number;
  budgetMs: number;
  /** The edition each backend keeps its storage in (absent: the backend's default, v0); named after it in the report. */
  edition?: Edition;
}

export const SCALE_PROFILE: Record<Profile, ScalePlan> = {
  full: { sizes: [100, 300, 1000, 3000, 10_000], samples: 30, budgetMs: 150_000 },
  quick: { sizes: [100, 300, 1000], samples: 10, budgetMs: 60_000 },
};

/**
 * Issue 35: each backend's per-operation time as one run grows, on one long-lived instance (the caches a process
 * keeps are part of what is measured), with each operation's fitted growth exponent and the memory this process
 * holds at each size. A backend whose growth passes the budget stops there: the sizes it did not reach are named,
 * never extrapolated.
 */
export async function benchScale(
  root: string,
  plan: ScalePlan,
  names: readonly string[],
  open: OpenBackend,
  shown: (spec: string) => string,
  log: (line: string) => void,
): Promise<ScaleResult> {
  const { sizes, samples, budgetMs } = plan;
  const backends: ScaleOutcome[] = [];
  for (const name of names) {
    try {
      backends.push(await scaleOne(join(root, `scale-${backends.length}`), name, plan, { open, shown, log }));
    } catch (err) {
      backends.push({
        name: shown(name),
        skipped: `errored: ${err instanceof Error ? err.message : String(err)}`,
        ...(isPluginSpec(name) ? { failed: true } : {}),
      });
    }
  }
  return { sizes, samples, budgetMs, backends };
}

interface ScaleIo {
  open: OpenBackend;
  shown: (spec: string) => string;
  log: (line: string) => void;
}

async function scaleOne(dir: string, name: string, plan: ScalePlan, io: ScaleIo): Promise<ScaleBackend> {
  const { open, shown } = io;
  const factory = await open(name);
  const env: BackendEnv = {
    projectDir: join(dir, 'project'),
    homeDir: join(dir, 'home'),
    decisions: resolveDecisions(),
    storageKey: `scale-${process.pid}-${dir.length}-${Date.now()}`,
    ...(plan.edition ? { edition: plan.edition } : {}),
  };
  mkdirSync(env.projectDir, { recursive: true });
  mkdirSync(env.homeDir, { recursive: true });
  const before = heldMiB();
  const backend = await factory.open(env);
  try {
    const caps = factory.capabilities;
    const { run } = await backend.call('createRun', { program: 'session "scale"\n' }, { role: 'vm' });
    const scale = new ScaleRun(backend, run, caps.includes('world-model'), caps.includes('receipts'));
    const base = isPluginSpec(name) ? `${name.slice(0, name.indexOf(':'))}:${factory.name}` : factory.name;
    const label = plan.edition ? `${base}@${plan.edition}` : base;
    return {
      name: label,
      ...(isPluginSpec(name) ? { spec: shown(name) } : {}),
      ...(await grow(scale, before, label, plan, io.log)),
    };
  } finally {
    await backend.close();
    await factory.dispose?.(env);
  }
}

/** Grows the run size by size, timing every supported operation at each; then fits each operation's curve. */
async function grow(
  scale: ScaleRun,
  before: number,
  label: string,
  plan: ScalePlan,
  log: (line: string) => void,
): Promise<Omit<ScaleBackend, 'name' | 'spec'>> {
  const { sizes, samples, budgetMs } = plan;
  const unsupported = scale.unsupported();
  const ops = SCALE_OPS.filter((op) => !(op in unsupported));
  const points: ScalePoint[] = [];
  const started = performance.now();
  let unreached: { sizes: number[]; reason: string } | undefined;
  for (const size of sizes) {
    const growStart = performance.now();
    const reached = await scale.growTo(size, () => performance.now() - started > budgetMs);
    if (!reached) {
      const at = scale.size;
      const reason = `growing passed the budget of ${budgetMs / 1000} s at ${at} bindings and events`;
      unreached = { sizes: sizes.filter((s) => s >= size), reason };
      log(`bench: scale ${label}: ${reason}`);
      break;
    }
    const growMs = performance.now() - growStart;
    await scale.prepare();
    log(`bench: scale ${label} at ${size}: ${ops.join(', ')}`);
    const t = await measureInterleavedAsync(
      ops.map((op) => ({ name: op, fn: scale.op(op), iterations: samples, time: 0 })),
      1,
    );
    const timings = Object.fromEntries(ops.map((op) => [op, t.get(op)!])) as Partial<Record<ScaleOp, Timing>>;
    points.push({ size, growMs, heldMiB: Math.max(0, heldMiB() - before), ops: timings });
  }
  const curve = (op: ScaleOp) => points.map((p) => ({ size: p.size, ms: p.ops[op]!.ms }));
  const exponents: Partial<Record<ScaleOp, number>> = {};
  const growth: Partial<Record<ScaleOp, number>> = {};
  for (const op of ops) {
    const e = growthExponent(curve(op));
    const g = growthRatio(curve(op));
    if (e !== undefined) exponents[op] = e;
    if (g !== undefined) growth[op] = g;
  }
  return {
    points,
    exponents,
    growth,
    ...(Object.keys(unsupported).length > 0 ? { unsupported } : {}),
    ...(unreached ? { unreached } : {}),
  };
}
