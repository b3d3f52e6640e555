import type { BackendEnv, BackendFactory } from '../core/backend.ts';
import { CAPABILITIES, type Capability } from '../core/capabilities.ts';
import { ProseError } from '../core/errors.ts';
import { genericProbe, PROBES, type Outcome, type Probe, type ProbeContext } from './probe-table.ts';

export type Verdict = 'ok' | 'claimed-but-broken' | 'undeclared-but-works' | 'undeclared-half-works' | 'unprobed';

export interface CapabilityVerdict {
  capability: Capability;
  declared: boolean;
  /** Whether the probe's sequence worked; null when it was not run. */
  works: boolean | null;
  verdict: Verdict;
  /** Why, when the verdict is not a plain ok. */
  detail?: string;
}

/**
 * Checks each capability both ways: a declared one must work, an undeclared one must answer E_UNSUPPORTED (or its
 * documented "off" behaviour). Every probe opens its own backend on `env`; the env should be fresh storage.
 */
export async function probeCapabilities(factory: BackendFactory, env: BackendEnv): Promise<CapabilityVerdict[]> {
  const ctx: ProbeContext = { env, open: () => factory.open(env) };
  const out: CapabilityVerdict[] = [];
  for (const capability of Object.keys(CAPABILITIES) as Capability[]) {
    const declared = factory.capabilities.includes(capability);
    const probe = PROBES[capability] ?? genericProbe(capability);
    // A declared capability with only the generic probe cannot be exercised (no valid arguments are known).
    if (!probe || (declared && !PROBES[capability])) {
      out.push({ capability, declared, works: null, verdict: declared ? 'unprobed' : 'ok', detail: 'no probe for this capability yet' });
      continue;
    }
    if (!declared && !probe.bothWays) {
      out.push({ capability, declared, works: null, verdict: 'ok', detail: 'nothing to refuse when undeclared' });
      continue;
    }
    out.push(judge(capability, declared, await runProbe(probe, ctx)));
  }
  return out;
}

async function runProbe(probe: Probe, ctx: ProbeContext): Promise<Outcome | { broken: string }> {
  try {
    return await probe.run(ctx);
  } catch (err) {
    if (err instanceof ProseError) return { broken: `${err.code}: ${err.message.split('\n')[0]}` };
    return { broken: err instanceof Error ? err.message : String(err) };
  }
}

function judge(capability: Capability, declared: boolean, o: Outcome | { broken: string }): CapabilityVerdict {
  const works = o === 'works';
  if (declared) {
    if (works) return { capability, declared, works, verdict: 'ok' };
    return { capability, declared, works, verdict: 'claimed-but-broken', detail: o === 'unsupported' ? 'declared, but answered as unsupported' : o.broken };
  }
  if (o === 'unsupported') return { capability, declared, works, verdict: 'ok' };
  if (works) return { capability, declared, works, verdict: 'undeclared-but-works', detail: 'not declared, yet the probe succeeded' };
  return { capability, declared, works, verdict: 'undeclared-half-works', detail: `not declared, and not refused with E_UNSUPPORTED: ${o.broken}` };
}
