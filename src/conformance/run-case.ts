import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv } from '../core/backend.ts';
import { DEFAULT_EDITION, editionLayout, type Edition } from '../core/editions.ts';
import { serializeError, toProseError } from '../core/errors.ts';
import { keepsOnlyWorldModel, WORLD_MODEL_ONLY_OPS } from '../core/world-model-only.ts';
import type { BaseStep } from './base-step.ts';
import { readingSkip } from './case-readings.ts';
import type { Case } from './case-types.ts';
import type { PlantStorage } from './plant.ts';
import { platformSkip } from './platform-skips.ts';
import type { Outcome } from './outcome.ts';
import type { CaseContext, RunState } from './run-context.ts';
import { evidenceOf, StepFailure, type StepRun } from './steps/step-kind.ts';
import { allSteps, runStep } from './steps/step-kinds.ts';
import type { Vars } from './template.ts';
import { withTimeout } from './with-timeout.ts';

export type { CaseContext, StepObserver } from './run-context.ts';

/** Runs one case on fresh storage and returns its outcome; never throws. */
export async function runCase(c: Case, ctx: CaseContext): Promise<Outcome> {
  const edition = ctx.factory.edition ?? DEFAULT_EDITION;
  const skip = skipReason(c, ctx, edition);
  if (skip) return { status: 'skipped', reason: skip };
  const env: BackendEnv = {
    projectDir: join(ctx.dir, 'project'),
    homeDir: join(ctx.dir, 'home'),
    decisions: ctx.decisions,
    storageKey: ctx.dir,
    edition,
  };
  mkdirSync(env.projectDir, { recursive: true });
  mkdirSync(env.homeDir, { recursive: true });
  const state: RunState = { backend: undefined, layoutChecks: 0, layoutNotApplicable: 0, metrics: {} };
  try {
    state.backend = await withTimeout(ctx.factory.open(env), ctx.stepTimeoutMs, 'opening the backend');
    const vars: Vars = { decisions: ctx.decisions, ...layoutVars(edition) };
    if (c.run) {
      ctx.onStep?.note("the runner creates the case's run; the steps call it ${run}");
      const r = await state.backend.call(
        'createRun',
        { program: `# conformance case ${c.id}\nsession "${c.title.replace(/"/g, "'")}"\n` },
        { role: 'vm' },
      );
      vars.run = r.run;
      vars.runId = r.runId;
      vars.runDir = `${vars.runsDir}/${r.run}`;
    }
    await runSteps(c.steps, vars, ctx, env, state);
    const metrics = Object.keys(state.metrics).length ? { metrics: state.metrics } : {};
    return {
      status: 'passed',
      layoutChecks: state.layoutChecks,
      layoutNotApplicable: state.layoutNotApplicable,
      ...metrics,
    };
  } catch (err) {
    if (err instanceof StepFailure) return err.outcome;
    const e = toProseError(err);
    return { status: 'errored', error: serializeError(e), evidence: evidenceOf(err) };
  } finally {
    await state.backend?.close().catch(() => undefined);
    await ctx.factory.dispose?.(env).catch(() => undefined);
    rmSync(ctx.dir, { recursive: true, force: true });
  }
}

async function runSteps(
  steps: BaseStep[],
  vars: Vars,
  ctx: CaseContext,
  env: BackendEnv,
  state: RunState,
): Promise<void> {
  const r: StepRun = { ctx, env, vars, state, runSteps: (inner) => runSteps(inner, vars, ctx, env, state) };
  for (const step of steps) {
    ctx.onStep?.step(step, vars);
    await runStep(step, r);
  }
}

/** The storage kinds a case plants for: it runs only on backends of one of them (an empty list: no plant steps). */
function plantStorages(c: Case): PlantStorage[] {
  return [...new Set(allSteps(c.steps).flatMap((s) => (s.kind === 'plant' ? [s.storage] : [])))];
}

/**
 * A `subagent:` step checks the binding confirmation, which the current texts keep for SQL storage only (sqlite.md,
 * postgres.md "Responsibility Separation"); the current filesystem.md's subagent is a render (decision
 * current-sql-subagent).
 */
function confirmationSkip(c: Case, ctx: CaseContext, edition: Edition): string | undefined {
  if (edition === DEFAULT_EDITION || ctx.factory.kind !== 'directory') return undefined;
  if (!allSteps(c.steps).some((s) => s.kind === 'subagent')) return undefined;
  return (
    `a subagent step checks the binding confirmation, which the ${edition} texts give SQL storage only; ` +
    `${ctx.factory.name} keeps directory storage, whose subagent is a render (decision current-sql-subagent)`
  );
}

/** The ops a case calls that a world-model-only backend answers E_UNSUPPORTED (none for any other backend). */
function opsNotKept(c: Case, ctx: CaseContext): string[] {
  if (!keepsOnlyWorldModel(ctx.factory.capabilities)) return [];
  const ops = allSteps(c.steps).flatMap((s) => (s.kind === 'op' && !WORLD_MODEL_ONLY_OPS.has(s.op) ? [s.op] : []));
  return [...new Set(ops)];
}

/** The edition's paths as template variables, so one case names the files of either tree (core/editions.ts). */
function layoutVars(edition: Edition): Vars {
  const l = editionLayout(edition);
  return {
    edition,
    runsDir: l.runsDir,
    projectAgents: l.projectAgentsDir,
    userAgents: `~/${l.userAgentsDir}`,
    envFile: l.envFile,
    programFile: l.programFile,
    executionLog: l.executionLog,
    executionLogHeading: l.executionLogHeading,
    sql: l.sqlColumns,
  };
}

/** Why the case cannot run on this backend in this edition, if it cannot: each reason is shown in every report. */
function skipReason(c: Case, ctx: CaseContext, edition: Edition): string | undefined {
  if (!c.editions.includes(edition))
    return `checks the ${c.editions.join(' and ')} edition's text; this run judges the ${edition} edition`;
  const reading = readingSkip(c.readings, ctx.decisions);
  if (reading) return reading;
  const missing = c.requires.filter((cap) => !ctx.factory.capabilities.includes(cap));
  if (missing.length) return `needs capability ${missing.join(', ')}, which ${ctx.factory.name} does not declare`;
  const confirmation = confirmationSkip(c, ctx, edition);
  if (confirmation) return confirmation;
  const unkept = opsNotKept(c, ctx);
  if (unkept.length)
    return `calls ${unkept.join(', ')}, which ${ctx.factory.name} does not keep (it declares world-model-only)`;
  const onPlatform = platformSkip(c, ctx.factory.kind, ctx.platform ?? process.platform);
  if (onPlatform) return onPlatform;
  const plants = plantStorages(c);
  if (plants.length && !(plants as string[]).includes(ctx.factory.kind))
    return `plants seed-written state for ${plants.join(', ')} storage; ${ctx.factory.name} keeps ${ctx.factory.kind} storage`;
  return undefined;
}
