import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../finding.ts';
import { finding, type FindingSink } from './finding-sink.ts';
import { decodeName, showName } from './owned-files.ts';
import { TREE_RULES, type TreeRuleId } from './tree-rules.ts';

/** Receives one tree finding; `file` is relative to the scanned root. */
export type TreeReport = (rule: TreeRuleId, message: string, file: string) => void;

export interface ScanOptions {
  maxFileBytes: number;
  /** Directories (relative paths) another verifier scans: not entered. */
  skip?: (rel: string) => boolean;
}

/**
 * Walks `root` once, reporting everything owned-files.ts will not read: links, FIFOs, sockets and devices, names that
 * are not UTF-8 and files over the cap. It never follows a link, so the walk is a tree; the (device, inode) set of
 * the directories entered keeps even a bind-mount loop from cycling. Unreadable directories are left to the checker
 * that needs them (they have their own finding).
 */
export function scanTree(root: string, report: TreeReport, opts: ScanOptions): void {
  const seen = new Set<string>();
  for (const e of entriesOf(root, seen)) visit(root, '', e, { report, opts, seen });
}

/** Only the entries of `root` named in `names` (and what lies under them): `~/.prose/agents` and `agents.db`, say. */
export function scanEntries(root: string, names: readonly string[], report: TreeReport, opts: ScanOptions): void {
  const seen = new Set<string>();
  const wanted = names.map((n) => Buffer.from(n));
  for (const e of entriesOf(root, seen))
    if (wanted.some((w) => w.equals(e.name))) visit(root, '', e, { report, opts, seen });
}

interface Walk {
  report: TreeReport;
  opts: ScanOptions;
  /** (device, inode) of every directory entered. */
  seen: Set<string>;
}

function entriesOf(abs: string, seen: Set<string>): Dirent<Buffer>[] {
  try {
    const s = lstatSync(abs);
    const id = `${s.dev}:${s.ino}`;
    if (!s.isDirectory() || seen.has(id)) return [];
    seen.add(id);
    return readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }).sort((a, b) => Buffer.compare(a.name, b.name));
  } catch {
    return [];
  }
}

function visit(dir: string, rel: string, e: Dirent<Buffer>, w: Walk): void {
  const name = decodeName(e.name);
  const at = (n: string) => (rel === '' ? n : `${rel}/${n}`);
  if (name === undefined) {
    const shown = at(showName(e.name));
    w.report('tree.name-encoding', `the name ${JSON.stringify(shown)} is not UTF-8; verify cannot check it`, shown);
    return;
  }
  const abs = join(dir, name);
  if (e.isDirectory()) {
    if (!w.opts.skip?.(at(name))) for (const c of entriesOf(abs, w.seen)) visit(abs, at(name), c, w);
  } else if (e.isFile()) {
    checkSize(abs, at(name), w.report, w.opts.maxFileBytes);
  } else if (e.isSymbolicLink()) {
    w.report('tree.symlink', `${at(name)} is a symbolic link; verify does not follow it`, at(name));
  } else {
    w.report('tree.special-file', `${at(name)} is a ${specialKind(e)}; verify does not open it`, at(name));
  }
}

function checkSize(abs: string, rel: string, report: TreeReport, max: number): void {
  let size: number;
  try {
    size = lstatSync(abs).size;
  } catch {
    return;
  }
  if (size > max) report('tree.too-large', `${rel} is ${size} bytes, over the ${max}-byte cap: not read`, rel);
}

function specialKind(e: Dirent<Buffer>): string {
  if (e.isFIFO()) return 'FIFO';
  if (e.isSocket()) return 'socket';
  return e.isCharacterDevice() || e.isBlockDevice() ? 'device' : 'special file';
}

/** A TreeReport into a finding sink (its path prefix applied). */
export function sinkReport(sink: FindingSink<string>): TreeReport {
  return (rule, message, file) => sink.out.push(finding(TREE_RULES, rule, message, { file: sink.path(file) }));
}

/** A TreeReport into a findings list, with `prefix` before each path. */
export function listReport(out: Finding[], prefix = ''): TreeReport {
  return (rule, message, file) => out.push(finding(TREE_RULES, rule, message, { file: prefix + file }));
}
