import { join } from 'node:path';
import { contentAddressOf, parseArtifact } from '../../canon/index.ts';
import { fingerprintDirectory } from '../../fingerprint/index.ts';
import type { Finding } from '../finding.ts';
import type { NodeLedger } from '../kit/check-ledger.ts';
import { finding } from '../kit/finding-sink.ts';
import { isKind, listOwned, readIfOwned, readOwnedText } from '../kit/owned-files.ts';
import { WORLD_MODEL_RULES } from './rules.ts';

const BIN_NAME = /^sha256_([0-9a-f]{64})\.bin$/;
const VERSION_RE = /^sha256:[a-f0-9]{64}\n$/;

/**
 * Checks world-model/{node}/ (.version and the directory hash), state/world-model/{node}/versions/*.bin, and
 * that what is published agrees with each node's ledger.
 */
export function checkTree(
  runDir: string,
  ledgers: Map<string, NodeLedger>,
  out: Finding[],
  maxFileBytes: number,
): void {
  const wmDir = join(runDir, 'world-model');
  const nodeDirs = isKind(wmDir, 'dir')
    ? listOwned(wmDir).filter((n) => n !== 'caller' && !n.startsWith('.') && isKind(join(wmDir, n), 'dir'))
    : [];
  const nodes = new Set([...nodeDirs, ...ledgers.keys()]);
  for (const node of [...nodes].sort()) {
    const ledger = ledgers.get(node);
    if (!ledger && nodeDirs.includes(node))
      out.push(
        finding(WORLD_MODEL_RULES, 'wm.orphan', `world-model/${node}/ has no receipts/${node}.jsonl`, {
          file: `world-model/${node}`,
          node,
        }),
      );
    const stored = checkVersions(runDir, node, out, maxFileBytes);
    const published = readVersionFile(runDir, node, out, maxFileBytes);
    if (published !== undefined) checkDirHash(runDir, node, published, out);
    if (published && !stored.has(published)) {
      out.push(
        finding(
          WORLD_MODEL_RULES,
          'wm.version-stored',
          `.version names ${published}, which is not under state/world-model/${node}/versions/`,
          { file: `world-model/${node}/.version`, node },
        ),
      );
    }
    if (ledger) checkAgainstLedger(node, ledger, published, stored, out);
  }
}

/** What is published is the ledger's last @atomic, and every rendered receipt's @atomic is a stored version. */
function checkAgainstLedger(
  node: string,
  ledger: NodeLedger,
  published: string | null | undefined,
  stored: Set<string>,
  out: Finding[],
): void {
  const expected = ledger.rendered.length > 0 ? ledger.lastAtomic : undefined;
  if (expected !== undefined && published === undefined) {
    out.push(
      finding(
        WORLD_MODEL_RULES,
        'wm.version-missing',
        `the ledger published ${expected} but world-model/${node}/.version is missing`,
        { file: `world-model/${node}/.version`, node },
      ),
    );
  } else if (published !== undefined && published !== expected) {
    out.push(
      finding(
        WORLD_MODEL_RULES,
        'wm.published-match',
        `.version is ${published ?? 'unreadable'} but the last non-failed receipt has @atomic ` +
          (expected ?? '(cold start: nothing published)'),
        { file: `world-model/${node}/.version`, node, receipt: ledger.count - 1 },
      ),
    );
  }
  for (const r of ledger.rendered) {
    if (!stored.has(r.atomic))
      out.push(
        finding(
          WORLD_MODEL_RULES,
          'wm.atomic-version',
          `rendered receipt ${r.index} has @atomic ${r.atomic}, which is not a stored version`,
          { file: `receipts/${node}.jsonl`, line: r.index + 1, receipt: r.index, node },
        ),
      );
  }
}

/** undefined: no .version; null: present but malformed (reported). */
function readVersionFile(
  runDir: string,
  node: string,
  out: Finding[],
  maxFileBytes: number,
): string | null | undefined {
  const file = `world-model/${node}/.version`;
  let text: string;
  try {
    text = readOwnedText(join(runDir, file), maxFileBytes);
  } catch {
    return undefined;
  }
  if (!VERSION_RE.test(text)) {
    out.push(
      finding(
        WORLD_MODEL_RULES,
        'wm.version-format',
        `${file} is ${JSON.stringify(text.slice(0, 80))}, not "sha256:<64 hex>\\n"`,
        { file, node },
      ),
    );
    const m = /sha256:[a-f0-9]{64}/.exec(text);
    return m ? m[0] : null;
  }
  return text.slice(0, -1);
}

function checkDirHash(runDir: string, node: string, published: string | null, out: Finding[]): void {
  const rel = `world-model/${node}`;
  try {
    const { address } = fingerprintDirectory(join(runDir, rel));
    if (published !== null && address !== published) {
      out.push(
        finding(WORLD_MODEL_RULES, 'wm.version-hash', `${rel}/ hashes to ${address} but .version says ${published}`, {
          file: rel,
          node,
          hint: 'a published file was edited, added or removed after the commit',
        }),
      );
    }
  } catch (err) {
    out.push(
      finding(WORLD_MODEL_RULES, 'wm.unreadable', `${rel}/ cannot be fingerprinted: ${(err as Error).message}`, {
        file: rel,
        node,
      }),
    );
  }
}

/** Checks every stored version file of a node; returns the addresses of the valid ones. */
function checkVersions(runDir: string, node: string, out: Finding[], maxFileBytes: number): Set<string> {
  const ok = new Set<string>();
  const rel = `state/world-model/${node}/versions`;
  const dir = join(runDir, rel);
  if (!isKind(dir, 'dir')) return ok;
  for (const name of listOwned(dir)) {
    const file = `${rel}/${name}`;
    const m = BIN_NAME.exec(name);
    if (!m) {
      if (!name.startsWith('.tmp-'))
        out.push(finding(WORLD_MODEL_RULES, 'wm.bin-name', `${file} is not named sha256_<64 hex>.bin`, { file, node }));
      continue;
    }
    const bytes = readIfOwned(join(dir, name), maxFileBytes);
    if (bytes === undefined) continue; // a tree.* finding says why
    const address = contentAddressOf(bytes);
    if (address !== `sha256:${m[1]}`) {
      out.push(finding(WORLD_MODEL_RULES, 'wm.bin-hash', `${file} hashes to ${address}`, { file, node }));
      continue;
    }
    try {
      parseArtifact(bytes);
    } catch (err) {
      out.push(finding(WORLD_MODEL_RULES, 'wm.bin-parse', `${file}: ${(err as Error).message}`, { file, node }));
      continue;
    }
    ok.add(address);
  }
  return ok;
}
