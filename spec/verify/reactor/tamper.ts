import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, receiptHash } from '../../../src/canon/index.ts';
import type { Finding } from '../../../src/verify/finding.ts';
import { reactorVerifier } from '../../../src/verify/reactor/index.ts';
import { REACTOR_DIR } from '../../canon/vectors.ts';

export type Rec = Record<string, any>;

/** Copies a read-only vector dir into a fresh temp dir, runs `fn`, and always removes the copy. */
export async function withCopy(name: string, fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `reactor-${name}-`));
  try {
    cpSync(join(REACTOR_DIR, name), dir, { recursive: true });
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const readReceipts = (dir: string): Rec[] => JSON.parse(readFileSync(join(dir, 'receipts.json'), 'utf8'));
/** Writes the ledger as the reference does (canonical JSON + LF), so only the tamper itself is visible. */
export const writeReceipts = (dir: string, list: Rec[]): void =>
  writeFileSync(join(dir, 'receipts.json'), canonicalJson(list) + '\n');
export const restamp = (r: Rec): void => void (r.content_hash = receiptHash(r));

/** Index of the last receipt of the node with the most receipts, so a re-stamped edit breaks no later link. */
export function lastOfBusiestNode(list: Rec[]): number {
  const counts = new Map<string, number>();
  for (const r of list) counts.set(r.node, (counts.get(r.node) ?? 0) + 1);
  const node = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  return list.map((r) => r.node).lastIndexOf(node);
}

export const nodeDir = (dir: string, node: string) =>
  join(dir, 'world-models', Buffer.from(node, 'utf8').toString('hex'));
export const binsOf = (dir: string, node: string) =>
  readdirSync(join(nodeDir(dir, node), 'versions')).map((b) => join(nodeDir(dir, node), 'versions', b));

export const verify = (dir: string): Promise<Finding[]> => reactorVerifier.verify(dir, {});
export const errors = (fs: Finding[]) => fs.filter((f) => f.severity === 'error');
export const rules = (fs: Finding[]) => [...new Set(errors(fs).map((f) => f.rule))].sort();
