import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { FileModel, type FileOp } from './file-model.ts';
import type { LoggedOp } from './resolve-ops.ts';
import { unreachable } from '../unreachable.ts';

/** One state a crash could leave: the log's first `upTo` operations, less `omit`, with `torn` cut short. */
export interface CrashState {
  kind: 'prefix' | 'torn' | 'omit';
  /** Operations 0..upTo-1 were issued before the crash. */
  upTo: number;
  /** Index of an operation issued but not yet on disk (the file system had not made it durable). */
  omit?: number;
  /** Index of a write of which only its first blocks reached the disk (the operation at upTo). */
  torn?: number;
  model: FileModel;
  /** What was acknowledged before the crash: key -> result. */
  acks: Map<string, unknown>;
}

const MUTATING = new Set<FileOp['t']>(['create', 'write', 'truncate', 'rename', 'link', 'unlink', 'mkdir', 'rmdir']);

/** The directory whose entries an operation changes (a rename: the one its new name lands in). */
function dirOf(op: FileOp): string | undefined {
  switch (op.t) {
    case 'create':
    case 'unlink':
    case 'mkdir':
    case 'rmdir':
      return dirname(op.path);
    case 'rename':
    case 'link':
      return dirname(op.to);
    case 'write':
    case 'truncate':
    case 'sync':
    case 'ack':
      return undefined;
    default:
      return unreachable(op, 'file operation');
  }
}

/** Whether `sync` makes `op` durable: a file's data by its fsync, a name by its directory's, everything by sync. */
function covers(sync: FileOp, op: FileOp): boolean {
  if (sync.t !== 'sync') return false;
  if (sync.all) return true;
  if ((op.t === 'write' || op.t === 'truncate') && sync.ino !== undefined) return op.ino === sync.ino;
  return sync.dir !== undefined && dirOf(op) === sync.dir;
}

export interface BuiltStates {
  /** The states to check, prefixes and torn writes first. */
  states: CrashState[];
  /** How many distinct crash states the log allows: exact when every one was built, else an upper bound. */
  candidates: number;
}

/**
 * The crash states of the log under the weak model (decision crash-state-model): each prefix of the operations
 * (what a killed process leaves), each prefix whose next write is torn at a block boundary, and each prefix with one earlier
 * operation left out that no fsync before the crash had made durable (what a power cut may drop). States that
 * look the same on disk are built once, keeping the one that owes the most acknowledgements. Beyond `max` states,
 * a sample drawn with `random` is kept: prefixes and torn writes before omissions.
 */
export function buildCrashStates(initial: FileModel, log: LoggedOp[], max: number, random: () => number): BuiltStates {
  const out = new Map<string, CrashState>();
  const digest = (m: FileModel) =>
    m.digest((parts) => {
      const h = createHash('sha256');
      for (const p of parts) h.update(p);
      return h.digest('hex');
    });
  const acksBefore = (k: number) => {
    const acks = new Map<string, unknown>();
    for (let i = 0; i < k; i++) {
      const op = log[i]!.op;
      if (op.t === 'ack') acks.set(op.key, op.result);
    }
    return acks;
  };
  const add = (s: Omit<CrashState, 'acks'>, into: Map<string, CrashState>) => {
    const acks = acksBefore(s.upTo);
    const key = digest(s.model);
    const had = into.get(key) ?? out.get(key);
    if (!had || had.acks.size < acks.size) into.set(key, { ...s, acks });
  };
  // A crash point is just before a mutating operation or a sync (or at the end): between two of them only acks
  // happen, which change nothing on disk, so the latest point owes the most. A sync ends what may still be lost.
  const points: number[] = [];
  for (let k = 0; k < log.length; k++) if (MUTATING.has(log[k]!.op.t) || log[k]!.op.t === 'sync') points.push(k);
  points.push(log.length);
  // Where each operation became durable: the first sync after it that covers it (log.length: never).
  const durableAt = log.map((l, j) => {
    if (!MUTATING.has(l.op.t)) return j;
    for (let s = j + 1; s < log.length; s++) if (covers(log[s]!.op, l.op)) return s;
    return log.length;
  });
  const prefix = initial.clone();
  let applied = 0;
  const omissions: [number, number][] = [];
  for (const k of points) {
    for (; applied < k; applied++) prefix.apply(log[applied]!.op);
    add({ kind: 'prefix', upTo: k, model: prefix.clone() }, out);
    const next = log[k]?.op;
    const cut = next?.t === 'write' ? tearAt(next.off, next.data.length) : undefined;
    if (next?.t === 'write' && cut !== undefined) {
      const torn = prefix.clone();
      torn.apply({ ...next, data: next.data.subarray(0, cut) });
      add({ kind: 'torn', upTo: k, torn: k, model: torn }, out);
    }
    for (let j = 0; j < k; j++) if (MUTATING.has(log[j]!.op.t) && durableAt[j]! >= k) omissions.push([k, j]);
  }
  const ordered = shuffle([...out.values()], random);
  const kept = ordered.slice(0, max);
  const extra = new Map<string, CrashState>();
  let complete = ordered.length <= max;
  for (const [n, [k, j]] of shuffle(omissions, random).entries()) {
    if (kept.length + extra.size >= max) {
      complete = n === omissions.length;
      break;
    }
    const m = initial.clone();
    for (let i = 0; i < k; i++) if (i !== j) m.apply(log[i]!.op);
    add({ kind: 'omit', upTo: k, omit: j, model: m }, extra);
  }
  kept.push(...extra.values());
  // Every state built: the distinct ones are all there are; sampled: an upper bound (omissions not deduplicated).
  const states = kept.sort((a, b) => a.upTo - b.upTo);
  return { states, candidates: complete ? states.length : out.size + omissions.length };
}

/** Page-cache writeback and disks keep a block whole: a write tears only at a block boundary inside it. */
const BLOCK = 4096;

/** How many bytes of a write at `off` reach the disk when it tears: up to its middle-most block boundary. */
function tearAt(off: number, length: number): number | undefined {
  const first = Math.floor(off / BLOCK) * BLOCK + BLOCK;
  if (first >= off + length) return undefined;
  const middle = Math.floor((off + length / 2) / BLOCK) * BLOCK;
  return Math.max(first, middle) - off;
}

/** A seeded Fisher-Yates shuffle (a copy). */
function shuffle<T>(xs: T[], random: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
