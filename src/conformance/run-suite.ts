import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendFactory } from '../core/backend.ts';
import type { Decisions } from '../core/decisions.ts';
import type { Case, Suite } from './case-types.ts';
import type { CapabilityReport } from './probes/capability-report.ts';
import { applyExpectation, expectationFor, type Expectations } from './expectations.ts';
import { countOutcomes, sumMetrics, type CaseResult, type Counts } from './outcome.ts';
import { runCase, type StepObserver } from './run-case.ts';
import type { FindingsFilter } from './run-subagent.ts';
import { probeBackend } from './probes/run-probes.ts';
import { shardCases, type Shard } from './shard.ts';

export interface RunHeader {
  suite: { name: string; version: string };
  backend: {
    name: string;
    kind: string;
    capabilities: readonly string[];
    description: string;
    settings?: Record<string, string>;
  };
  decisions: Decisions;
  cases: number;
  /** The seed of the crash area's kill points: rerun with --seed to replay. */
  seed: number;
  /** Whether the capability claims are probed in this run (`skipped`: --no-probe, or a caller without a prober). */
  probes: 'run' | 'skipped';
  /** Present when the run took one share of the cases (test --shard); `report merge` joins the shares. */
  shard?: Shard;
}

/** Receives results as they happen, so a JSON Lines report streams and a cut-off run has no footer. */
export interface Listener {
  header(h: RunHeader): void;
  /** The backend's capability probes, after its header and before its cases (only when the run probes). */
  capabilities?(r: CapabilityReport): void;
  result(r: CaseResult): void;
  footer(backend: string, counts: Counts, extra: Record<string, unknown>): void;
}

export interface RunOptions {
  suite: Suite;
  factories: BackendFactory[];
  decisions: Decisions;
  filter: { areas: string[]; ids: string[] };
  listener: Listener;
  expectations?: Expectations;
  stepTimeoutMs?: number;
  /** Stop a backend's run at its first failed or errored case (selftest needs one kill, not all). */
  stopAtFirstFailure?: boolean;
  /** argv that starts this CLI in a child process, for the crash and concurrency areas. */
  workerCommand?: readonly string[];
  /** Seed of the crash area's kill points; random when absent (and printed in the header). */
  seed?: number;
  /** Probes each backend's capability claims on fresh storage before its cases; absent or false, they are not probed. */
  probe?: boolean;
  /** Told each step of each case before it runs (test --explain). */
  onStep?: StepObserver;
  /** selftest only: a checker bug applied to every subagent step's findings. */
  checkerBug?: FindingsFilter;
  /** Run only this shard's share of the selected cases (balanced by `durations`, ms per case id, when given). */
  shard?: Shard;
  durations?: ReadonlyMap<string, number>;
}

export function selectCases(suite: Suite, filter: RunOptions['filter']): Case[] {
  return suite.cases.filter(
    (c) =>
      (filter.areas.length === 0 || filter.areas.includes(c.area)) &&
      (filter.ids.length === 0 ||
        filter.ids.some((id) => c.id === id || (id.endsWith('*') && c.id.startsWith(id.slice(0, -1))))),
  );
}

/** Runs the selected cases on every factory, one fresh temp directory per case. Returns all results. */
export async function runSuite(opts: RunOptions): Promise<CaseResult[]> {
  const selected = selectCases(opts.suite, opts.filter);
  const cases = opts.shard ? shardCases(selected, opts.shard, opts.durations) : selected;
  const all: CaseResult[] = [];
  const root = mkdtempSync(join(tmpdir(), 'prose-state-'));
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  try {
    for (const [f, factory] of opts.factories.entries()) {
      opts.listener.header({
        suite: { name: opts.suite.name, version: opts.suite.version },
        backend: {
          name: factory.name,
          kind: factory.kind,
          capabilities: factory.capabilities,
          description: factory.description,
          ...(factory.settings ? { settings: factory.settings } : {}),
        },
        decisions: opts.decisions,
        cases: cases.length,
        seed,
        probes: opts.probe ? 'run' : 'skipped',
        ...(opts.shard ? { shard: opts.shard } : {}),
      });
      if (opts.probe)
        opts.listener.capabilities?.(
          await probeBackend(factory, opts.decisions, join(root, `${f}-probes`), opts.stepTimeoutMs ?? 30_000),
        );
      const results: CaseResult[] = [];
      for (const [n, c] of cases.entries()) {
        const started = performance.now();
        // A skip expectation means the case is not run at all (it may hang or harm the backend).
        const skip = expectationFor(opts.expectations, factory.name, c.id)?.outcome === 'skip';
        const raw = skip
          ? undefined
          : await runCase(c, {
              factory,
              decisions: opts.decisions,
              dir: join(root, `${f}-${n}`),
              stepTimeoutMs: opts.stepTimeoutMs ?? 30_000,
              workerCommand: opts.workerCommand,
              seed: caseSeed(seed, c.id),
              runSeed: seed,
              ...(opts.onStep ? { onStep: opts.onStep } : {}),
              ...(opts.checkerBug ? { checkerBug: opts.checkerBug } : {}),
            });
        const outcome = applyExpectation(
          opts.expectations,
          factory.name,
          c.id,
          raw ?? { status: 'skipped', reason: '' },
        );
        const r: CaseResult = {
          backend: factory.name,
          id: c.id,
          area: c.area,
          title: c.title,
          spec: c.spec,
          durationMs: Math.round(performance.now() - started),
          outcome,
        };
        results.push(r);
        opts.listener.result(r);
        if (opts.stopAtFirstFailure && (outcome.status === 'failed' || outcome.status === 'errored')) break;
      }
      opts.listener.footer(factory.name, countOutcomes(results), sumMetrics(results));
      all.push(...results);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return all;
}

/** Each case gets its own seed from the run's, so cases do not share kill points but all replay from one number. */
function caseSeed(seed: number, id: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
