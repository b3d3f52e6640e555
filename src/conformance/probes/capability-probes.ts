import type { BackendEnv, BackendFactory } from '../../core/backend.ts';
import { CAPABILITIES, type Capability } from '../../core/capabilities.ts';
import type { CapabilityVerdict } from './capability-verdict.ts';
import { ProseError } from '../../core/errors.ts';
import { ERRORED_CODES } from '../outcome.ts';
import { withTimeout } from '../with-timeout.ts';
import { keepsOnlyWorldModel } from '../../core/world-model-only.ts';
import { COMMIT_PROBES } from './commit-probes.ts';
import { editionOfCapability, editionProbe } from './edition-probes.ts';
import {
  Broken,
  genericProbe,
  PROBES,
  UNPROBED,
  type ProbeOutcome,
  type Probe,
  type ProbeContext,
} from './probe-table.ts';

export type { CapabilityVerdict, Verdict } from './capability-verdict.ts';

export interface ProbeOptions {
  /** How long one capability's probe may take before it is errored (default 30 s, the runner's step timeout). */
  timeoutMs?: number;
}

/** What a probe came to: its outcome, a wrong answer (`broken`), or the backend breaking (`errored`). */
type Ran = ProbeOutcome | { broken: string } | { errored: string };

/**
 * Checks each capability both ways: a declared one must work, an undeclared one must answer E_UNSUPPORTED (or its
 * documented "off" behaviour). Every probe opens its own backend on `env`; the env should be fresh storage.
 */
export async function probeCapabilities(
  factory: BackendFactory,
  env: BackendEnv,
  opts: ProbeOptions = {},
): Promise<CapabilityVerdict[]> {
  const ctx: ProbeContext = { env, open: () => factory.open(env), openOn: (other) => factory.open(other) };
  const out: CapabilityVerdict[] = [];
  for (const capability of Object.keys(CAPABILITIES) as Capability[]) {
    const declared = factory.capabilities.includes(capability);
    const found = probeOf(capability, factory);
    const probe = found && 'run' in found ? found : genericProbe(capability);
    // A declared capability with only the generic probe cannot be exercised (no valid arguments are known).
    if (!probe || (declared && !(found && 'run' in found))) {
      out.push({
        capability,
        declared,
        works: null,
        verdict: declared ? 'unprobed' : 'ok',
        detail:
          (found && 'unprobed' in found ? found.unprobed : UNPROBED[capability]) ?? 'no probe for this capability yet',
      });
      continue;
    }
    if (!declared && !probe.bothWays) {
      out.push({ capability, declared, works: null, verdict: 'ok', detail: 'nothing to refuse when undeclared' });
      continue;
    }
    out.push(judge(capability, declared, await runProbe(probe, ctx, opts.timeoutMs ?? 30_000), probe.offMeans));
  }
  return out;
}

/**
 * The probe of a capability on this backend, or why there is none for it: by its kind of storage for an edition, and
 * through commits instead of bindings where it declares world-model-only (whose own probe every backend gets).
 */
function probeOf(capability: Capability, factory: BackendFactory): Probe | { unprobed: string } | undefined {
  const edition = editionOfCapability(capability);
  if (edition) return editionProbe(edition, factory.kind);
  if (capability === 'world-model-only' || keepsOnlyWorldModel(factory.capabilities))
    return COMMIT_PROBES[capability] ?? PROBES[capability];
  return PROBES[capability];
}

async function runProbe(probe: Probe, ctx: ProbeContext, timeoutMs: number): Promise<Ran> {
  try {
    // A probe that never answers is the backend hanging; the run goes on without it.
    return await withTimeout(probe.run(ctx), timeoutMs, 'the probe', () => PROBE_TIMED_OUT);
  } catch (err) {
    if (err === PROBE_TIMED_OUT) return { errored: `the probe timed out after ${timeoutMs} ms` };
    if (err instanceof Broken) return { broken: err.message };
    if (err instanceof ProseError) {
      const text = `${err.code}: ${err.message.split('\n')[0]}`;
      return ERRORED_CODES.has(err.code) ? { errored: text } : { broken: text };
    }
    return { errored: `the backend threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}` };
  }
}

const PROBE_TIMED_OUT = Symbol('the probe timed out');

function judge(
  capability: Capability,
  declared: boolean,
  o: Ran,
  offMeans = 'answered E_UNSUPPORTED',
): CapabilityVerdict {
  if (typeof o === 'object' && 'errored' in o)
    return { capability, declared, works: null, verdict: 'errored', detail: o.errored };
  const works = o === 'works';
  if (declared) {
    if (works) return { capability, declared, works, verdict: 'ok' };
    return {
      capability,
      declared,
      works,
      verdict: 'claimed-but-broken',
      detail: o === 'unsupported' ? `declared, but ${offMeans}` : o.broken,
    };
  }
  if (o === 'unsupported') return { capability, declared, works, verdict: 'ok' };
  if (works)
    return {
      capability,
      declared,
      works,
      verdict: 'undeclared-but-works',
      detail: 'not declared, yet the probe succeeded',
    };
  return {
    capability,
    declared,
    works,
    verdict: 'undeclared-half-works',
    detail: `not declared, and not refused with E_UNSUPPORTED: ${o.broken}`,
  };
}
