import type { Handlers, WorldModelOp } from '../core/semantics.ts';
import { ProseError } from '../core/errors.ts';
import type { RunRef } from '../core/model.ts';
import type { OpArgs, OpResults } from '../core/ops.ts';
import type { WorldModelStore, StateStore } from '../core/store.ts';
import { canonicalJson } from './canonical-json.ts';
import { normalizeArtifactPath } from './artifact-path.ts';
import { ATOMIC_FACET } from './receipt.ts';
import { facetTokens } from './facet-tokens.ts';
import { artifactEntriesOf, checkAddressArg, commitEntries, filesOfVersion } from './world-model-files.ts';
import { lastOf, parseReceipt, WorldModelContext } from './world-model-context.ts';
import {
  COLD_START_FINGERPRINTS,
  failedReceipt,
  renderedReceipt,
  sameFingerprints,
  skippedReceipt,
} from './world-model-receipts.ts';
import { serializeReceipt } from './receipt-for.ts';
import { reconcilerSkips, SPEC_READINGS, suppliedDiff, type CommitReadings } from './commit-readings.ts';

/**
 * The semantics of the world-model, receipt and envelope operations over `store.worldModel`, the same for every
 * built-in backend, so the same history gives the same addresses and receipt bytes everywhere. Calls on one
 * (run, node) are serialized in this process so a chain never forks.
 */
export function worldModelHandlers(
  store: StateStore,
  readings: CommitReadings = SPEC_READINGS,
): Pick<Handlers, WorldModelOp> {
  const c = new WorldModelContext(store);
  return {
    commitWorldModel: (a) => commitWorldModel(c, a, readings),
    failRender: (a) => failRender(c, a),
    readPublished: (a) => readPublished(c, a),
    readVersion: (a) => readVersion(c, a),
    listReceipts: (a) => listReceipts(c, a),
    writeWorkspace: (a) => writeWorkspace(c, a),
    writeEnvelope: (a) => writeEnvelope(c, a),
    readEnvelope: (a) => readEnvelope(c, a),
  };
}

type Result<K extends WorldModelOp> = Promise<OpResults[K]>;

async function commitWorldModel(
  c: WorldModelContext,
  a: OpArgs['commitWorldModel'],
  readings: CommitReadings,
): Result<'commitWorldModel'> {
  const node = c.nodeName(a.node);
  const entries = artifactEntriesOf(a.files);
  const facets = a.facets === undefined ? {} : facetTokens(entries, a.facets);
  const diff = suppliedDiff(readings, a.semanticDiff);
  const s = await c.wm(a.run);
  return c.serial(c.chainKey(s, a.run, node), async () => {
    const { address, bytes } = commitEntries(entries);
    const head = await c.headReceipt(s, a.run, node);
    const { prev, fingerprints: before } = lastOf(head ? [head] : []);
    const after = { [ATOMIC_FACET]: address, ...facets };
    const ctx = { ...a, node };
    const skip =
      readings.skipRule === 'before-render'
        ? reconcilerSkips(head, a.contract, a.inputFingerprints ?? [])
        : sameFingerprints(before, after);
    if (skip) {
      const receipt = skippedReceipt(ctx, prev, before);
      await s.appendReceipt(a.run, node, serializeReceipt(receipt));
      return {
        status: 'skipped' as const,
        version: await s.readPublished(a.run, node),
        contentHash: receipt.content_hash,
        prev,
        fingerprints: { ...before },
      };
    }
    const receipt = renderedReceipt(ctx, prev, before, after, diff);
    await s.writeVersion(a.run, node, address, bytes);
    await s.publish(a.run, node, address);
    await s.appendReceipt(a.run, node, serializeReceipt(receipt));
    return {
      status: 'rendered' as const,
      version: address,
      contentHash: receipt.content_hash,
      prev,
      fingerprints: after,
    };
  });
}

async function failRender(c: WorldModelContext, a: OpArgs['failRender']): Result<'failRender'> {
  const node = c.nodeName(a.node);
  const s = await c.wm(a.run);
  return c.serial(c.chainKey(s, a.run, node), async () => {
    const { prev, fingerprints } = await c.headOf(s, a.run, node);
    const receipt = failedReceipt({ ...a, node }, prev, fingerprints, a.reason);
    await s.appendReceipt(a.run, node, serializeReceipt(receipt));
    return { status: 'failed' as const, contentHash: receipt.content_hash, prev };
  });
}

async function readPublished(c: WorldModelContext, a: OpArgs['readPublished']): Result<'readPublished'> {
  const node = c.nodeName(a.node);
  const s = await c.wm(a.run);
  const version = await s.readPublished(a.run, node);
  if (version === null) return { version: null, fingerprints: { ...COLD_START_FINGERPRINTS }, files: {} };
  // A faceted node's tokens are in its receipts only (the files alone do not say which subtrees are facets).
  const head = await c.lastInRun(s, a.run, node);
  const { fingerprints: last } = lastOf(head ? [head] : []);
  return {
    version,
    fingerprints: last[ATOMIC_FACET] === version ? { ...last } : { [ATOMIC_FACET]: version },
    files: await versionFiles(s, a.run, node, version, true),
  };
}

async function readVersion(c: WorldModelContext, a: OpArgs['readVersion']): Result<'readVersion'> {
  const node = c.nodeName(a.node);
  const version = checkAddressArg(a.version, 'version');
  const s = await c.wm(a.run);
  return { files: await versionFiles(s, a.run, node, version, false) };
}

async function listReceipts(c: WorldModelContext, a: OpArgs['listReceipts']): Result<'listReceipts'> {
  const node = a.node === undefined ? undefined : c.nodeName(a.node);
  const s = await c.wm(a.run);
  const texts = await s.readReceipts(a.run, node);
  const parsed = texts.map((t, i) => parseReceipt(t, `receipts[${i}]`) as unknown as Record<string, unknown>);
  return { receipts: node === undefined ? byNode(parsed) : parsed };
}

async function writeWorkspace(c: WorldModelContext, a: OpArgs['writeWorkspace']): Result<'writeWorkspace'> {
  const node = c.nodeName(a.node);
  const entries = artifactEntriesOf(a.files);
  const s = await c.wm(a.run);
  await c.serial(`${a.run}\u0000${node}\u0000ws`, () => s.writeWorkspace(a.run, node, commitEntries(entries).bytes));
  return {};
}

async function writeEnvelope(c: WorldModelContext, a: OpArgs['writeEnvelope']): Result<'writeEnvelope'> {
  const envelope = envelopeOf(a);
  const s = await c.wm(a.run);
  return c.serial(`${a.run}\u0000envelope`, async () => {
    const existing = await s.readEnvelope(a.run);
    if (existing) {
      if (canonicalJson(existing) === canonicalJson(envelope)) return {};
      throw new ProseError('E_CONFLICT', 'the run envelope is already written and differs', {
        location: { field: 'run' },
        hint: 'compiled-intent.json, root.prose.md and sources/ are immutable during a run',
      });
    }
    await s.writeEnvelope(a.run, envelope);
    return {};
  });
}

async function readEnvelope(c: WorldModelContext, a: OpArgs['readEnvelope']): Result<'readEnvelope'> {
  const s = await c.wm(a.run);
  const env = await s.readEnvelope(a.run);
  if (!env) throw new ProseError('E_NOT_FOUND', `run ${a.run} has no envelope yet`, { location: { field: 'run' } });
  let compiledIntent: Record<string, unknown>;
  try {
    compiledIntent = JSON.parse(env.compiledIntentJson) as Record<string, unknown>;
  } catch (err) {
    throw new ProseError('E_CORRUPT', 'compiled-intent.json is not JSON', {
      location: { field: 'compiledIntent' },
      cause: err,
    });
  }
  return { compiledIntent, rootSource: env.rootSource, sources: sortedRecord(env.sources) };
}

async function versionFiles(
  s: WorldModelStore,
  run: RunRef,
  node: string,
  version: string,
  published: boolean,
): Promise<Record<string, string>> {
  const bytes = await s.readVersion(run, node, version);
  if (!bytes) {
    if (published)
      throw new ProseError('E_CORRUPT', `node ${node} publishes ${version}, which is not stored`, {
        location: { field: 'node' },
      });
    throw new ProseError('E_NOT_FOUND', `node ${node} has no version ${version}`, { location: { field: 'version' } });
  }
  return filesOfVersion(bytes, `${node}@${version}`, version);
}

/** Every node's receipts: nodes in UTF-8 byte order of their names, each chain in append order (`wm-list-order`). */
function byNode(receipts: Record<string, unknown>[]): Record<string, unknown>[] {
  const key = (r: Record<string, unknown>) => Buffer.from(String(r.node), 'utf8');
  return receipts
    .map((r, i) => ({ r, i }))
    .sort((x, y) => Buffer.compare(key(x.r), key(y.r)) || x.i - y.i)
    .map((x) => x.r);
}

function envelopeOf(a: OpArgs['writeEnvelope']): {
  compiledIntentJson: string;
  rootSource: string;
  sources: Record<string, string>;
} {
  let compiledIntentJson: string;
  try {
    compiledIntentJson = canonicalJson(a.compiledIntent);
  } catch (err) {
    throw new ProseError('E_INVALID_ARGUMENT', `compiledIntent has no canonical JSON: ${(err as Error).message}`, {
      location: { field: 'compiledIntent' },
      cause: err,
    });
  }
  const sources: Record<string, string> = {};
  for (const [raw, text] of Object.entries(a.sources ?? {})) {
    const field = `sources[${JSON.stringify(raw)}]`;
    let path: string;
    try {
      path = normalizeArtifactPath(raw, field);
    } catch (err) {
      throw new ProseError('E_INVALID_ARGUMENT', (err as Error).message, { location: { field }, cause: err });
    }
    if (path !== raw)
      throw new ProseError(
        'E_INVALID_ARGUMENT',
        `source path ${JSON.stringify(raw)} must be written as ${JSON.stringify(path)}`,
        { location: { field } },
      );
    if (typeof text !== 'string')
      throw new ProseError('E_INVALID_ARGUMENT', `${field} must be a string`, { location: { field } });
    sources[path] = text;
  }
  artifactEntriesOf(sources, 'sources');
  return { compiledIntentJson, rootSource: a.rootSource, sources: sortedRecord(sources) };
}

function sortedRecord(r: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).sort(([x], [y]) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
}
