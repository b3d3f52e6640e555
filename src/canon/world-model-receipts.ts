import { ProseError } from '../core/errors.ts';
import { canonicalJson } from './canonical-json.ts';
import { EMPTY_ARTIFACT_ADDRESS, isContentAddress, type ContentAddress } from './content-address.ts';
import {
  ATOMIC_FACET,
  nullSignature,
  WAKE_SOURCES,
  zeroCost,
  type LedgerReceipt,
  type ReceiptBody,
  type WakeSource,
} from './receipt.ts';
import { receiptFor } from './receipt-for.ts';

/** The published fingerprints of a node that never committed: the empty artifact under `@atomic` (`wm-cold-start`). */
export const COLD_START_FINGERPRINTS: Readonly<Record<string, string>> = Object.freeze({
  [ATOMIC_FACET]: EMPTY_ARTIFACT_ADDRESS,
});

/** What the caller of commitWorldModel / failRender says about the render. */
export interface RenderContext {
  node: string;
  contract: string;
  wake?: { source: WakeSource; refs: string[] };
  inputFingerprints?: string[];
  tokens?: { fresh: number; reused: number };
  provider?: string;
  model?: string;
}

/** The default wake of a render that names none: external, no refs (`wm-receipt-defaults`). */
function wakeOf(ctx: RenderContext): { source: WakeSource; refs: ContentAddress[] } {
  const wake = ctx.wake ?? { source: 'external' as const, refs: [] };
  if (
    !wake ||
    typeof wake !== 'object' ||
    !(WAKE_SOURCES as readonly unknown[]).includes(wake.source) ||
    !Array.isArray(wake.refs)
  ) {
    throw new ProseError('E_INVALID_ARGUMENT', 'wake must be {source: input|self|external, refs: [...]}', {
      location: { field: 'wake' },
    });
  }
  const extra = Object.keys(wake).filter((k) => k !== 'source' && k !== 'refs');
  if (extra.length > 0)
    throw new ProseError('E_INVALID_ARGUMENT', `wake has no key ${JSON.stringify(extra[0])}`, {
      location: { field: `wake.${extra[0]}` },
    });
  wake.refs.forEach((r, i) => {
    if (!isContentAddress(r))
      throw new ProseError('E_INVALID_ARGUMENT', `wake.refs[${i}] is not a content address`, {
        location: { field: `wake.refs[${i}]` },
      });
  });
  return { source: wake.source, refs: [...wake.refs] as ContentAddress[] };
}

function inputsOf(ctx: RenderContext): string[] {
  const inputs = ctx.inputFingerprints ?? [];
  inputs.forEach((t, i) => {
    if (t.length === 0)
      throw new ProseError('E_INVALID_ARGUMENT', 'an input fingerprint is a non-empty string', {
        location: { field: `inputFingerprints[${i}]` },
      });
  });
  return [...inputs];
}

function nonEmpty(value: string | undefined, field: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (value.length === 0)
    throw new ProseError('E_INVALID_ARGUMENT', `${field} must be non-empty`, { location: { field } });
  return value;
}

function tokensOf(ctx: RenderContext): { fresh: number; reused: number } {
  const t = ctx.tokens ?? { fresh: 0, reused: 0 };
  const keys = Object.keys(t);
  for (const k of ['fresh', 'reused'] as const) {
    const n = t[k];
    if (!Number.isSafeInteger(n) || n < 0)
      throw new ProseError('E_INVALID_ARGUMENT', `tokens.${k} must be a non-negative integer`, {
        location: { field: `tokens.${k}` },
      });
  }
  if (keys.length !== 2)
    throw new ProseError('E_INVALID_ARGUMENT', 'tokens is exactly {fresh, reused}', { location: { field: 'tokens' } });
  return { fresh: t.fresh, reused: t.reused };
}

function base(
  ctx: RenderContext,
  prev: ContentAddress | null,
): Omit<ReceiptBody, 'fingerprints' | 'semantic_diff' | 'status' | 'cost'> & { source: WakeSource } {
  const wake = wakeOf(ctx);
  return {
    node: ctx.node,
    contract_fingerprint: nonEmpty(ctx.contract, 'contract', ctx.contract),
    wake,
    input_fingerprints: inputsOf(ctx),
    prev,
    sig: nullSignature(),
    source: wake.source,
  };
}

function strip(b: ReturnType<typeof base>): Omit<ReceiptBody, 'fingerprints' | 'semantic_diff' | 'status' | 'cost'> {
  const { source: _s, ...rest } = b;
  return rest;
}

/**
 * A rendered receipt: new fingerprints, `semantic_diff` = `{facet: {from, to}}` per moved facet (`wm-semantic-diff`),
 * or the render-supplied context when given (decision semantic-diff).
 */
export function renderedReceipt(
  ctx: RenderContext,
  prev: ContentAddress | null,
  before: Record<string, string>,
  after: Record<string, string>,
  supplied?: Record<string, unknown>,
): LedgerReceipt {
  const b = base(ctx, prev);
  const diff: Record<string, unknown> = supplied ?? {};
  if (!supplied)
    for (const facet of Object.keys(after)) {
      if (before[facet] !== after[facet]) diff[facet] = { from: before[facet] ?? null, to: after[facet] };
    }
  const cost = {
    provider: nonEmpty(ctx.provider, 'provider', 'none'),
    model: nonEmpty(ctx.model, 'model', 'none'),
    tokens: tokensOf(ctx),
    surprise_cause: b.source,
  };
  return receiptFor({ ...strip(b), fingerprints: { ...after }, semantic_diff: diff, status: 'rendered', cost });
}

/** A skipped receipt: fingerprints copied forward, empty diff, the zero cost of the reference (`createSkippedReceipt`). */
export function skippedReceipt(
  ctx: RenderContext,
  prev: ContentAddress | null,
  fingerprints: Record<string, string>,
): LedgerReceipt {
  const b = base(ctx, prev);
  tokensOf(ctx);
  return receiptFor({
    ...strip(b),
    fingerprints: { ...fingerprints },
    semantic_diff: {},
    status: 'skipped',
    cost: zeroCost(b.source),
  });
}

/** A failed receipt: fingerprints copied forward, `semantic_diff` = `{failure_reason}`, zero cost. */
export function failedReceipt(
  ctx: RenderContext,
  prev: ContentAddress | null,
  fingerprints: Record<string, string>,
  reason: string,
): LedgerReceipt {
  const b = base(ctx, prev);
  if (reason.length === 0)
    throw new ProseError('E_INVALID_ARGUMENT', 'reason must be non-empty', { location: { field: 'reason' } });
  return receiptFor({
    ...strip(b),
    fingerprints: { ...fingerprints },
    semantic_diff: { failure_reason: reason },
    status: 'failed',
    cost: zeroCost(b.source),
  });
}

/** Whether two fingerprint maps are the same tokens (order of keys does not matter). */
export function sameFingerprints(a: Record<string, string>, b: Record<string, string>): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
