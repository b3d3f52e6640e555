import { Buffer } from 'node:buffer';
import type { ArtifactEntry } from '../../canon/artifact-files.ts';
import { canonicalJson } from '../../canon/canonical-json.ts';
import { contentAddressOf } from '../../canon/content-address.ts';
import { serializeEntries } from '../../canon/opwm1.ts';
import { serializeReceipt } from '../../canon/receipt-for.ts';
import { ATOMIC_FACET, type LedgerReceipt } from '../../canon/receipt.ts';
import { artifactEntriesOf } from '../../canon/world-model-files.ts';
import {
  COLD_START_FINGERPRINTS,
  renderedReceipt,
  sameFingerprints,
  skippedReceipt,
} from '../../canon/world-model-receipts.ts';
import { ProseError } from '../../core/errors.ts';
import type { OpArgs } from '../../core/ops.ts';
import { mutant, pass, type Intercept, type Mutant, type MutationContext } from '../mutant.ts';

type Files = Record<string, string>;
type CommitArgs = OpArgs['commitWorldModel'];

/** A commit whose files are changed before the real backend sees them: what a store that loses files does. */
function filesBug(change: (files: Files) => Files): Intercept {
  return (op, args, actor, ctx) =>
    op === 'commitWorldModel'
      ? pass(op, { ...args, files: change(args.files as Files) }, actor, ctx)
      : pass(op, args, actor, ctx);
}

/**
 * A commit serialized by a buggy writer: the same refusals as the real backend, then `entriesOf` decides which
 * paths go into the OPWM1 bytes in which order. When that gives the canonical bytes the real backend commits.
 */
function serializerBug(entriesOf: (files: Files, canonical: ArtifactEntry[]) => ArtifactEntry[]): Intercept {
  return async (op, args, actor, ctx) => {
    if (op !== 'commitWorldModel') return pass(op, args, actor, ctx);
    const a = args as unknown as CommitArgs;
    const canonical = artifactEntriesOf(a.files);
    const bytes = serializeEntries(entriesOf(a.files, canonical));
    if (Buffer.compare(bytes, serializeEntries(canonical)) === 0) return pass(op, args, actor, ctx);
    return commitBytes(a, ctx, bytes);
  };
}

/** The real commit's bookkeeping (chain, skip, receipts, pointer) around bytes the buggy writer produced. */
async function commitBytes(a: CommitArgs, ctx: MutationContext, bytes: Uint8Array): Promise<unknown> {
  if (!(await ctx.store.readRun(a.run)))
    throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(a.run)}`, { location: { field: 'run' } });
  const wm = ctx.store.worldModel!;
  const last = (await wm.readReceipts(a.run, a.node)).map((t) => JSON.parse(t) as LedgerReceipt).at(-1);
  const prev = last?.content_hash ?? null;
  const before = last?.fingerprints ?? { ...COLD_START_FINGERPRINTS };
  const address = contentAddressOf(bytes);
  const after = { [ATOMIC_FACET]: address };
  if (sameFingerprints(before, after)) {
    const receipt = skippedReceipt(a, prev, before);
    await wm.appendReceipt(a.run, a.node, serializeReceipt(receipt));
    return {
      status: 'skipped',
      version: await wm.readPublished(a.run, a.node),
      contentHash: receipt.content_hash,
      prev,
      fingerprints: before,
    };
  }
  const receipt = renderedReceipt(a, prev, before, after);
  await wm.writeVersion(a.run, a.node, address, bytes);
  await wm.publish(a.run, a.node, address);
  await wm.appendReceipt(a.run, a.node, serializeReceipt(receipt));
  return { status: 'rendered', version: address, contentHash: receipt.content_hash, prev, fingerprints: after };
}

/** compiled-intent.json written by a buggy canonical-JSON writer; the real backend checks and writes first. */
function intentBug(json: (value: unknown) => string): Intercept {
  return async (op, args, actor, ctx) => {
    const result = await pass(op, args, actor, ctx);
    if (op !== 'writeEnvelope') return result;
    const text = json(args.compiledIntent);
    const stored = await ctx.store.worldModel!.readEnvelope(args.run as string);
    if (stored && text !== canonicalJson(args.compiledIntent))
      await ctx.store.worldModel!.writeEnvelope(args.run as string, { ...stored, compiledIntentJson: text });
    return result;
  };
}

/** Sorted-key compact JSON with the key order and number format given. */
function jsonWith(v: unknown, order: (a: string, b: string) => number, num: (n: number) => string): string {
  if (typeof v === 'number') return num(v);
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => jsonWith(x, order, num)).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort(order);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${jsonWith(o[k], order, num)}`).join(',')}}`;
}

const utf16 = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const utf8 = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const baseName = (path: string): string => path.split('/').at(-1)!;
const isRootVersion = (path: string): boolean => path.replace(/^[/.]*\//, '') === '.version';
const keep = (files: Files, ok: (path: string, content: string) => boolean): Files =>
  Object.fromEntries(Object.entries(files).filter(([p, c]) => ok(p.replace(/\\/g, '/'), c)));

/** A per-directory walk: each directory's names sorted, a directory's files emitted where its name sorts. */
function bySegments(a: ArtifactEntry, b: ArtifactEntry): number {
  const x = a.path.split('/');
  const y = b.path.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = utf8(x[i]!, y[i]!);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

/** Like a case-insensitive, normalization-insensitive file system: the first name keeps the last content. */
function mergeTwins(files: Files): Files {
  const byFold = new Map<string, [string, string]>();
  for (const [path, content] of Object.entries(files)) {
    const fold = path.normalize('NFC').toLowerCase();
    byFold.set(fold, [byFold.get(fold)?.[0] ?? path, content]);
  }
  return Object.fromEntries(byFold.values());
}

/** Canonical-bytes bugs: OPWM1 order, paths and files, and canonical JSON. The deterministic-fingerprints area must catch them. */
export const FINGERPRINT_MUTANTS: Mutant[] = [
  mutant(
    'path-order-utf16',
    'artifact files are sorted with JS default order (UTF-16 code units), so U+1F600 lands before U+FF21',
    {
      intercept: serializerBug((_f, entries) => [...entries].sort((a, b) => utf16(a.path, b.path))),
    },
  ),
  mutant(
    'path-order-per-directory',
    'artifact files are ordered by a per-directory walk, so "a/b" lands before "a.b"',
    {
      intercept: serializerBug((_f, entries) => [...entries].sort(bySegments)),
    },
  ),
  mutant(
    'path-dot-segments-kept',
    'artifact paths are hashed with "\\" and a leading "/" fixed but "." and empty segments kept ("a/./b", "a//b")',
    {
      intercept: serializerBug((files) =>
        Object.entries(files)
          .map(([raw, content]) => {
            const path = raw.replace(/\\/g, '/').replace(/^\/+/, '');
            return { path, pathBytes: Buffer.from(path, 'utf8'), content: Buffer.from(content, 'utf8') };
          })
          .sort((a, b) => Buffer.compare(a.pathBytes, b.pathBytes)),
      ),
    },
  ),
  mutant('empty-files-dropped', 'a file with no bytes is left out of the artifact', {
    intercept: filesBug((files) => keep(files, (_p, c) => c.length > 0)),
  }),
  mutant(
    'version-dropped-everywhere',
    'a file named .version is left out at every depth, not only the stamp at the root',
    {
      intercept: filesBug((files) => keep(files, (p) => baseName(p) !== '.version' || isRootVersion(p))),
    },
  ),
  mutant(
    'dotfiles-dropped',
    'files and directories whose names start with "." are left out (a glob without dot: true)',
    {
      // The root .version still reaches the real backend, which refuses it: only the dotfiles themselves go missing.
      intercept: filesBug((files) =>
        keep(files, (p) => isRootVersion(p) || !p.split('/').some((s) => s.startsWith('.') && s !== '.' && s !== '..')),
      ),
    },
  ),
  mutant(
    'twins-merged',
    'paths equal up to case or Unicode normalization are one file, as on a case-insensitive file system',
    {
      intercept: filesBug(mergeTwins),
    },
  ),
  mutant('json-keys-by-code-point', 'canonical JSON sorts keys by code point (UTF-8 bytes), not UTF-16 code units', {
    intercept: intentBug((v) => jsonWith(v, utf8, (n) => JSON.stringify(n))),
  }),
  mutant('json-numbers-verbatim', 'canonical JSON prints -0 as "-0" and whole numbers from 1e21 up in full digits', {
    intercept: intentBug((v) =>
      jsonWith(v, utf16, (n) =>
        Object.is(n, -0) ? '-0' : Number.isInteger(n) ? BigInt(n).toString() : JSON.stringify(n),
      ),
    ),
  }),
];
