import { join } from 'node:path';
import { contentAddressOf, EMPTY_ARTIFACT_ADDRESS, isPlain, parseArtifact } from '../../canon/index.ts';
import { ProseError } from '../../core/errors.ts';
import type { Finding } from '../finding.ts';
import { sameJson, type NodeLedger } from '../kit/check-ledger.ts';
import { finding } from '../kit/finding-sink.ts';
import { isKind, kindOf, listOwned, readIfOwned, readOwned, readOwnedText, RefusedFile } from '../kit/owned-files.ts';
import { REACTOR_RULES } from './rules.ts';

type Ledgers = Map<string, NodeLedger>;
/** What every node directory is checked against: the ledgers, and the size cap on the files read. */
interface NodeCtx {
  ledgers: Ledgers;
  maxFileBytes: number;
}

const BIN_NAME = /^sha256_([0-9a-f]{64})\.bin$/;
const HEX_NAME = /^(?:[0-9a-f]{2})+$/;
const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });
const KNOWN = new Set(['published.json', 'versions', 'workspace.bin']);

/** Checks world-models/: directory names, every version file, workspace.bin, published.json and @atomic links. */
export function checkWorldModels(root: string, ledgers: Ledgers, out: Finding[], maxFileBytes: number): void {
  const wmRoot = join(root, 'world-models');
  const seen = new Set<string>();
  for (const dirName of listOwned(wmRoot)) {
    const rel = `world-models/${dirName}`;
    if (!isKind(join(wmRoot, dirName), 'dir')) {
      out.push(finding(REACTOR_RULES, 'reactor.wm-unknown', `${rel} is not a node directory`, { file: rel }));
      continue;
    }
    const node = nodeOf(dirName);
    if (node === undefined) {
      out.push(
        finding(REACTOR_RULES, 'reactor.wm-dir-name', `${dirName} is not the lowercase hex of a UTF-8 node name`, {
          file: rel,
        }),
      );
      continue;
    }
    seen.add(node);
    if (!ledgers.has(node))
      out.push(
        finding(REACTOR_RULES, 'reactor.wm-orphan', `node ${JSON.stringify(node)} has a world model but no receipts`, {
          file: rel,
          node,
        }),
      );
    checkNodeDir(join(wmRoot, dirName), rel, node, { ledgers, maxFileBytes }, out);
  }
  for (const [node, ledger] of ledgers) {
    if (ledger.last !== undefined && !seen.has(node))
      out.push(
        finding(
          REACTOR_RULES,
          'reactor.wm-missing',
          `node ${JSON.stringify(node)} committed but has no world-models/${Buffer.from(node, 'utf8').toString('hex')}/`,
          { node },
        ),
      );
  }
}

function checkNodeDir(dir: string, rel: string, node: string, ctx: NodeCtx, out: Finding[]): void {
  for (const name of listOwned(dir)) {
    if (!KNOWN.has(name))
      out.push(
        finding(REACTOR_RULES, 'reactor.wm-unknown', `unexpected ${rel}/${name}`, { file: `${rel}/${name}`, node }),
      );
  }
  const versions = checkVersions(join(dir, 'versions'), `${rel}/versions`, node, out, ctx.maxFileBytes);
  if (kindOf(join(dir, 'workspace.bin')) !== 'missing') {
    try {
      parseArtifact(readOwned(join(dir, 'workspace.bin'), ctx.maxFileBytes));
    } catch (err) {
      // A refused file has its tree.* finding already.
      if (!(err instanceof RefusedFile))
        out.push(
          finding(REACTOR_RULES, 'reactor.workspace-bin', describe(err), { file: `${rel}/workspace.bin`, node }),
        );
    }
  }
  const published = checkPublished(join(dir, 'published.json'), `${rel}/published.json`, node, versions, ctx, out);
  // The @atomic -> .bin link holds only under the atomic canonicalizer, seen as published version == @atomic.
  const atomicCanonicalizer = published !== undefined && published.version === published.atomic;
  for (const r of ctx.ledgers.get(node)?.rendered ?? []) {
    if (versions.has(r.atomic)) continue;
    out.push(
      finding(
        REACTOR_RULES,
        'reactor.atomic-bin',
        `rendered receipt's @atomic ${r.atomic} names no version file`,
        {
          file: 'receipts.json',
          receipt: r.index,
          node,
          hint: atomicCanonicalizer
            ? 'the node uses the atomic canonicalizer, so @atomic is the committed version'
            : "a compiled canonicalizer's @atomic need not be a version address",
        },
        atomicCanonicalizer ? 'error' : 'warning',
      ),
    );
  }
}

/** Returns the addresses of version files whose bytes parse and hash to their name. */
function checkVersions(dir: string, rel: string, node: string, out: Finding[], maxFileBytes: number): Set<string> {
  const valid = new Set<string>();
  if (!isKind(dir, 'dir')) return valid;
  for (const name of listOwned(dir)) {
    const file = `${rel}/${name}`;
    const m = BIN_NAME.exec(name);
    if (!m) {
      out.push(
        finding(REACTOR_RULES, 'reactor.bin-name', `${name} is not named sha256_<64 lowercase hex>.bin`, {
          file,
          node,
        }),
      );
      continue;
    }
    const bytes = readIfOwned(join(dir, name), maxFileBytes);
    if (bytes === undefined) continue; // a tree.* finding says why
    try {
      parseArtifact(bytes);
    } catch (err) {
      out.push(finding(REACTOR_RULES, 'reactor.bin-parse', describe(err), { file, node }));
      continue;
    }
    const actual = contentAddressOf(bytes);
    if (actual !== `sha256:${m[1]}`) {
      out.push(
        finding(REACTOR_RULES, 'reactor.bin-hash', `content hashes to ${actual}, not to its name`, {
          file,
          node,
          hint: 'the file was edited or renamed',
        }),
      );
      continue;
    }
    valid.add(actual);
  }
  return valid;
}

function checkPublished(
  path: string,
  file: string,
  node: string,
  versions: Set<string>,
  ctx: NodeCtx,
  out: Finding[],
): { version: unknown; atomic: unknown } | undefined {
  const expected = ctx.ledgers.get(node)?.last;
  if (kindOf(path) === 'missing') {
    if (expected)
      out.push(
        finding(REACTOR_RULES, 'reactor.published-missing', 'the node committed but has no published.json', {
          file,
          node,
        }),
      );
    return undefined;
  }
  let pub: unknown;
  try {
    pub = JSON.parse(readOwnedText(path, ctx.maxFileBytes));
  } catch (err) {
    if (err instanceof RefusedFile) return undefined; // a tree.* finding says why
    out.push(finding(REACTOR_RULES, 'reactor.published-shape', `not JSON: ${(err as Error).message}`, { file, node }));
    return undefined;
  }
  if (!isPlain(pub) || !isPlain(pub.fingerprints) || Object.keys(pub).sort().join(',') !== 'fingerprints,version') {
    out.push(
      finding(REACTOR_RULES, 'reactor.published-shape', 'published.json must be exactly {"version", "fingerprints"}', {
        file,
        node,
      }),
    );
    return undefined;
  }
  const want = expected ?? { '@atomic': EMPTY_ARTIFACT_ADDRESS };
  if (!sameJson(pub.fingerprints, want)) {
    out.push(
      finding(
        REACTOR_RULES,
        'reactor.published-match',
        `fingerprints ${JSON.stringify(pub.fingerprints)} differ from the last non-failed receipt's ${JSON.stringify(want)}`,
        { file, node },
      ),
    );
  }
  if (expected === undefined ? pub.version !== null : !(typeof pub.version === 'string' && versions.has(pub.version))) {
    out.push(
      finding(
        REACTOR_RULES,
        'reactor.published-version',
        `version ${JSON.stringify(pub.version)} names no valid version file`,
        { file, node },
      ),
    );
  }
  return { version: pub.version, atomic: pub.fingerprints['@atomic'] };
}

function nodeOf(dirName: string): string | undefined {
  if (!HEX_NAME.test(dirName)) return undefined;
  try {
    const node = UTF8_STRICT.decode(Buffer.from(dirName, 'hex'));
    return node.length > 0 ? node : undefined;
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  return err instanceof ProseError
    ? `${err.message}${err.location?.field ? ` (${err.location.field})` : ''}`
    : String(err);
}
