import { join } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import { parseBindingFile, type BindingFile } from '../../core/formats/binding-file.ts';
import { checkName } from '../../core/names.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { isKind, listOwned, readOwnedText, RefusedFile } from '../kit/owned-files.ts';
import type { RunDirRuleId } from './rules.ts';

type Sink = FindingSink<RunDirRuleId>;

/** A binding file on disk, as far as it could be read. */
export interface BindingOnDisk {
  file: string;
  name: string;
  executionId: number | null;
  /**
   * What the later checks read of the parsed file (the Index compares the kind); absent when it did not parse. The
   * value and source are dropped once the file is checked, so a run's bindings are never all held at once.
   */
  parsed?: Pick<BindingFile, 'kind' | 'attachment'>;
}

const SCOPED = /^(.+)__(\d+)\.md$/;
const ANON = /^anon_(\d+)$/;

/**
 * Checks every file in bindings/ (filesystem.md "bindings/{name}.md", session.md 6.1) and attachments/. Dot files
 * are writes in flight (the atomic-write temp files) and are skipped.
 */
export function checkBindings(
  runDir: string,
  sink: Sink,
  thresholdBytes: number,
  maxFileBytes: number,
): BindingOnDisk[] {
  const out: BindingOnDisk[] = [];
  const referenced = new Set<string>();
  for (const entry of listDir(join(runDir, 'bindings'), 'bindings', sink)) {
    const file = `bindings/${entry}`;
    const b = checkOne(runDir, entry, file, sink, { thresholdBytes, maxFileBytes });
    if (!b) continue;
    out.push(b);
    if (b.parsed?.attachment !== undefined) referenced.add(b.parsed.attachment);
  }
  checkAnonSequence(out, sink);
  for (const entry of listDir(join(runDir, 'attachments'), 'attachments', sink)) {
    const rel = `attachments/${entry}`;
    if (!referenced.has(rel)) sink.add('attachment.orphan', `no binding names ${rel} as its attachment`, { file: rel });
  }
  return out;
}

function checkOne(
  runDir: string,
  entry: string,
  file: string,
  sink: Sink,
  { thresholdBytes, maxFileBytes }: { thresholdBytes: number; maxFileBytes: number },
): BindingOnDisk | undefined {
  if (!entry.endsWith('.md')) {
    sink.add('binding.file-name', `${entry} is not a binding file ({name}.md or {name}__{execution_id}.md)`, { file });
    return undefined;
  }
  const scoped = SCOPED.exec(entry);
  if (scoped && !/^[1-9]\d*$/.test(scoped[2]!)) {
    sink.add('binding.file-name', `${entry}: execution_id ${scoped[2]} is not a positive integer`, { file });
    return undefined;
  }
  const name = scoped ? scoped[1]! : entry.slice(0, -3);
  const executionId = scoped ? Number(scoped[2]) : null;
  try {
    checkName('binding', name);
  } catch (err) {
    sink.add('binding.name', (err as Error).message, { file });
    return undefined;
  }
  const text = readText(join(runDir, file), file, sink, maxFileBytes);
  if (text === undefined) return undefined;
  const parsed = parse(text, file, sink);
  const kept =
    parsed &&
    (parsed.attachment === undefined ? { kind: parsed.kind } : { kind: parsed.kind, attachment: parsed.attachment });
  const b: BindingOnDisk = { file, name, executionId, ...(kept ? { parsed: kept } : {}) };
  if (!parsed) return b;
  if (parsed.name !== name)
    sink.add('binding.name-mismatch', `the heading names ${JSON.stringify(parsed.name)} but the file is ${entry}`, {
      file,
      line: 1,
    });
  if (parsed.executionId !== executionId) {
    const line = lineOf(text, /^execution_id: /m) ?? 3;
    sink.add(
      'binding.execution-id',
      executionId === null
        ? `a root-scope file (${entry}) carries execution_id: ${parsed.executionId}`
        : `${entry} is scoped to execution_id ${executionId} but the file says ${parsed.executionId ?? 'nothing (root)'}`,
      { file, line },
    );
  }
  if (parsed.attachment !== undefined) checkAttachment(runDir, parsed.attachment, file, text, sink);
  else if (Buffer.byteLength(parsed.value, 'utf8') > thresholdBytes) {
    sink.add(
      'binding.too-large',
      `the value is ${Buffer.byteLength(parsed.value, 'utf8')} bytes of UTF-8, over the ${thresholdBytes}-byte threshold, and not attached`,
      { file },
    );
  }
  return b;
}

/** parseBindingFile, with its E_FORMAT errors as findings; tolerates session.md's blank line after `source:`. */
function parse(text: string, file: string, sink: Sink): BindingFile | undefined {
  const blank = /^source:\r?\n\r?\n(?=`{3,}prose)/m.exec(text);
  let body = text;
  if (blank) {
    sink.add('binding.source-blank', 'a blank line stands between source: and the ```prose fence', {
      file,
      line: lineAt(text, blank.index) + 1,
    });
    body = text.slice(0, blank.index) + 'source:\n' + text.slice(blank.index + blank[0].length);
  }
  try {
    return parseBindingFile(body, file);
  } catch (err) {
    if (!(err instanceof ProseError)) throw err;
    const line = (err.location?.line ?? 1) + (blank && (err.location?.line ?? 0) > lineAt(text, blank.index) ? 1 : 0);
    const failing = body.split('\n')[(err.location?.line ?? 1) - 1] ?? '';
    sink.add(failing.startsWith('kind:') ? 'binding.kind' : 'binding.format', err.message, { file, line }, err.hint);
    return undefined;
  }
}

function checkAttachment(runDir: string, attachment: string, file: string, text: string, sink: Sink): void {
  const line = lineOf(text, /^attachment: /m);
  if (!/^attachments\/[^/\\]+$/.test(attachment) || attachment.includes('..')) {
    sink.add(
      'binding.attachment',
      `attachment ${JSON.stringify(attachment)} is not a file directly under attachments/`,
      { file, line },
    );
    return;
  }
  if (!isKind(join(runDir, attachment), 'file'))
    sink.add('binding.attachment', `attachment ${attachment} does not exist`, { file, line });
}

/** anon_001, anon_002, ... one counter per run (decisions anon-numbering): gaps and repeats are warnings. */
function checkAnonSequence(bindings: BindingOnDisk[], sink: Sink): void {
  const numbers: { n: number; file: string; digits: string }[] = [];
  for (const b of bindings) {
    const m = ANON.exec(b.name);
    if (m) numbers.push({ n: Number(m[1]), file: b.file, digits: m[1]! });
  }
  numbers.sort((a, b) => a.n - b.n);
  let expect = 1;
  for (const { n, file, digits } of numbers) {
    if (digits.length < 3 || (digits.length > 3 && digits.startsWith('0'))) {
      sink.add(
        'binding.anon-sequence',
        `anon_${digits} is not zero-padded to 3 digits (anon_${String(n).padStart(3, '0')})`,
        { file },
      );
    }
    if (n < expect) sink.add('binding.anon-sequence', `anon number ${n} is used twice in this run`, { file });
    else if (n > expect) sink.add('binding.anon-sequence', `anon numbers jump from ${expect - 1} to ${n}`, { file });
    expect = Math.max(expect, n + 1);
  }
}

/**
 * Regular files and directories in a directory, sorted, without dot files; a missing directory (or a link where it
 * belongs, reported by the tree scan) is empty; an unreadable one a finding.
 */
export function listDir(abs: string, rel: string, sink: Sink): string[] {
  try {
    return listOwned(abs).filter((e) => !e.startsWith('.'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && !(err instanceof RefusedFile))
      sink.add('run.unreadable', `cannot list ${rel}: ${(err as Error).message}`, { file: rel });
    return [];
  }
}

/** A file's text; undefined (with a finding unless the tree scan already has one) when it cannot be read. */
export function readText(abs: string, rel: string, sink: Sink, maxBytes: number): string | undefined {
  try {
    return readOwnedText(abs, maxBytes);
  } catch (err) {
    if (err instanceof RefusedFile) return undefined;
    sink.add('run.unreadable', `cannot read ${rel}: ${(err as Error).message}`, { file: rel });
    return undefined;
  }
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function lineOf(text: string, re: RegExp): number | undefined {
  const m = re.exec(text);
  return m ? lineAt(text, m.index) : undefined;
}
