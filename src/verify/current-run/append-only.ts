import { join } from 'node:path';
import type { Finding } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { isKind, kindOf } from '../kit/owned-files.ts';
import { looksLikeRun } from '../edition/tree-edition.ts';
import { APPEND_RULES, type AppendRuleId } from './append-rules.ts';
import { listNames } from './list-names.ts';
import { readBytes } from './read-bytes.ts';

type Sink = FindingSink<AppendRuleId>;

/**
 * `verify --since OLD PATH`: every append-only file OLD holds (vm.log.md, receipts/*.jsonl, in each run and import;
 * a root's state/world-model/{node}/receipts.jsonl) must still start with OLD's lines. Appended lines are fine; a
 * changed, removed or cut line is a finding naming PATH's file and line. Only OLD's tree and PATH's are read.
 */
export function checkAppendOnly(old: string, path: string, maxBytes: number): Finding[] {
  const out: Finding[] = [];
  const sink = new FindingSink(APPEND_RULES, out);
  const files = looksLikeRun(path) ? runFiles(old, '') : rootFiles(old);
  if (files.length === 0)
    sink.add('append.snapshot', `${old} holds no vm.log.md or receipt ledger to compare with`, {});
  for (const rel of files) compareFile(join(old, rel), join(path, rel), rel, maxBytes, sink);
  return out;
}

/** The append-only files of a run (and its imports) under `dir`, relative to `base`'s `rel` prefix. */
function runFiles(base: string, rel: string): string[] {
  const at = (p: string) => (rel ? `${rel}/${p}` : p);
  const files: string[] = [];
  if (isEntry(join(base, at('vm.log.md')))) files.push(at('vm.log.md'));
  for (const name of listNames(join(base, at('receipts'))))
    if (name.endsWith('.jsonl') && isKind(join(base, at(`receipts/${name}`)), 'file'))
      files.push(at(`receipts/${name}`));
  for (const imp of listNames(join(base, at('imports'))))
    if (isKind(join(base, at(`imports/${imp}`)), 'dir')) files.push(...runFiles(base, at(`imports/${imp}`)));
  return files;
}

/** A file, or a link or special file standing where one should (compareFile names it as not compared, never opens it). */
function isEntry(p: string): boolean {
  const kind = kindOf(p);
  return kind !== 'missing' && kind !== 'dir';
}

function rootFiles(root: string): string[] {
  const files: string[] = [];
  for (const run of listNames(join(root, 'runs')))
    if (isKind(join(root, 'runs', run), 'dir')) files.push(...runFiles(root, `runs/${run}`));
  for (const node of listNames(join(root, 'state', 'world-model'))) {
    const rel = `state/world-model/${node}/receipts.jsonl`;
    if (isEntry(join(root, rel))) files.push(rel);
  }
  return files;
}

function compareFile(oldPath: string, newPath: string, rel: string, maxBytes: number, sink: Sink): void {
  const before = readBytes(oldPath, maxBytes);
  if (!('bytes' in before))
    return sink.add(
      'append.snapshot',
      `OLD's ${rel} ${'error' in before ? before.error : 'is a link, special or over the size cap'}`,
      {
        file: rel,
      },
    );
  const now = readBytes(newPath, maxBytes);
  if ('refused' in now) return; // the tree scan reports it
  if ('error' in now) {
    if (now.error === 'is missing')
      sink.add('append.removed', `${rel} was removed; OLD held ${lineCount(before.bytes)} lines of it`, { file: rel });
    return;
  }
  const problem = firstDifference(before.bytes, now.bytes);
  if (problem) sink.add(problem.rule, problem.message, { file: rel, line: problem.line });
}

interface Difference {
  rule: AppendRuleId;
  line: number;
  message: string;
}

/** The first line of `before` that `after` does not keep, byte for byte; undefined when `after` only appends. */
export function firstDifference(before: Uint8Array, after: Uint8Array): Difference | undefined {
  const old = lines(before);
  const now = lines(after);
  const tornLast = before.length > 0 && before[before.length - 1] !== 0x0a;
  for (let i = 0; i < old.length; i++) {
    const a = old[i]!;
    const b = now[i];
    if (b === undefined)
      return {
        rule: 'append.removed',
        line: Math.max(now.length, 1),
        message: `OLD's lines ${i + 1} to ${old.length} are gone: the file has ${now.length} lines now`,
      };
    const torn = tornLast && i === old.length - 1;
    if (torn ? startsWith(b, a) : Buffer.compare(a, b) === 0) continue;
    const more = old
      .slice(i + 1)
      .filter((x, j) => now[i + 1 + j] === undefined || Buffer.compare(x, now[i + 1 + j]!) !== 0);
    return {
      rule: 'append.changed',
      line: i + 1,
      message:
        `line ${i + 1} was ${show(a)} in OLD and is ${show(b)} now` +
        (more.length > 0 ? ` (${more.length} later lines of OLD differ too)` : ''),
    };
  }
  return undefined;
}

function lines(bytes: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++)
    if (bytes[i] === 0x0a) {
      out.push(Buffer.from(bytes.subarray(start, i)));
      start = i + 1;
    }
  if (start < bytes.length) out.push(Buffer.from(bytes.subarray(start)));
  return out;
}

const lineCount = (bytes: Uint8Array) => lines(bytes).length;
const startsWith = (whole: Buffer, part: Buffer) =>
  whole.length >= part.length && whole.subarray(0, part.length).equals(part);
const show = (line: Buffer) => JSON.stringify(line.toString('utf8').slice(0, 80));
