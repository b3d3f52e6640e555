import { ProseError } from '../errors.ts';
import { BINDING_KINDS, type BindingKind, type ExecutionId } from '../model.ts';

/**
 * The seed's binding file (filesystem.md "bindings/{name}.md"):
 *
 *   # research
 *
 *   kind: let
 *   execution_id: 43          (only in a frame)
 *   attachment: attachments/research.md   (our extension, only when attached)
 *
 *   source:
 *   ```prose
 *   let research = session: researcher
 *   ```
 *
 *   ---
 *
 *   {value, verbatim to the end of the file}
 *
 * The value is everything after the blank line that follows `---`, byte for byte, so values holding `---` lines,
 * fences, CRLF or any Unicode read back exactly.
 */
export interface BindingFile {
  name: string;
  kind: BindingKind;
  executionId: ExecutionId | null;
  source: string;
  value: string;
  attachment?: string;
}

export function formatBindingFile(b: BindingFile): string {
  const fence = fenceFor(b.source);
  const head = [`# ${b.name}`, '', `kind: ${b.kind}`];
  if (b.executionId !== null) head.push(`execution_id: ${b.executionId}`);
  if (b.attachment !== undefined) head.push(`attachment: ${b.attachment}`);
  head.push('', 'source:', `${fence}prose`);
  if (b.source.length > 0) head.push(b.source);
  head.push(fence, '', '---', '', '');
  return head.join('\n') + b.value;
}

/** A fence longer than any run of backticks in the source, so the source can hold fences of its own. */
function fenceFor(source: string): string {
  let longest = 0;
  for (const m of source.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Reads a text line by line, counting lines so every error can name one. */
interface LineReader {
  next(): string | undefined;
  fail(message: string, hint?: string): never;
  expect(want: string | RegExp, what: string): string;
  atEnd(): boolean;
  rest(): string;
}

function lineReader(text: string, file: string): LineReader {
  let pos = 0;
  let lineNo = 0;
  const next = (): string | undefined => {
    if (pos >= text.length) return undefined;
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end);
    pos = nl === -1 ? text.length : nl + 1;
    lineNo += 1;
    return line;
  };
  const fail = (message: string, hint?: string): never => {
    throw new ProseError('E_FORMAT', message, { location: { file, line: lineNo }, hint });
  };
  const expect = (want: string | RegExp, what: string): string => {
    const line = next();
    if (line === undefined) fail(`file ends where ${what} was expected`, 'a binding file is cut short');
    if (typeof want === 'string' ? line !== want : !want.test(line!))
      fail(`expected ${what}, found ${JSON.stringify(line)}`);
    return line!;
  };
  return { next, fail, expect, atEnd: () => pos >= text.length, rest: () => text.slice(pos) };
}

/** Parses a binding file; every error names the line. `file` is used only in error locations. */
export function parseBindingFile(text: string, file = '<binding>'): BindingFile {
  const r = lineReader(text, file);
  const heading = r.expect(/^# .+$/, 'the heading "# {name}"');
  const name = heading.slice(2);
  r.expect('', 'a blank line after the heading');
  const kindLine = r.expect(/^kind: /, '"kind: input|output|let|const"');
  const kind = kindLine.slice(6) as BindingKind;
  if (!BINDING_KINDS.includes(kind))
    r.fail(`kind must be one of ${BINDING_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  const { executionId, attachment } = readHeaderRest(r);
  const source = readSourceBlock(r);
  r.expect('', 'a blank line after the source block');
  r.expect('---', 'the "---" separator');
  // The separator is followed by one blank line, then the value. An empty value may end the file right there.
  if (!r.atEnd()) r.expect('', 'a blank line after "---"');
  const value = r.rest();
  return {
    name,
    kind,
    executionId,
    source,
    value,
    ...(attachment !== undefined ? { attachment } : {}),
  };
}

/** The header lines after `kind:`, up to the blank line that ends the header. */
function readHeaderRest(r: LineReader): { executionId: ExecutionId | null; attachment?: string } {
  let executionId: ExecutionId | null = null;
  let attachment: string | undefined;
  for (;;) {
    const line = r.next();
    if (line === undefined) r.fail('file ends inside the header');
    if (line === '') break;
    if (line!.startsWith('execution_id: ')) {
      const v = line!.slice(14);
      if (!/^[1-9]\d*$/.test(v)) r.fail(`execution_id must be a positive integer, got ${JSON.stringify(v)}`);
      executionId = Number(v);
    } else if (line!.startsWith('attachment: ')) {
      attachment = line!.slice(12);
    } else {
      r.fail(
        `unexpected header line ${JSON.stringify(line)}`,
        'the header holds kind:, execution_id: and attachment: only',
      );
    }
  }
  return attachment !== undefined ? { executionId, attachment } : { executionId };
}

/** `source:` and the fenced prose block after it; the fence may be longer than three backticks. */
function readSourceBlock(r: LineReader): string {
  r.expect('source:', '"source:"');
  const open = r.expect(/^`{3,}prose$/, 'an opening fence "```prose"');
  const fence = open.slice(0, -'prose'.length);
  const sourceLines: string[] = [];
  for (;;) {
    const line = r.next();
    if (line === undefined) r.fail('the source block is never closed', `close it with ${fence}`);
    if (line === fence) break;
    sourceLines.push(line!);
  }
  return sourceLines.join('\n');
}
