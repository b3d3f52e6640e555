import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ProseError } from '../core/errors.ts';
import { BEGIN_FILE, BEGIN_RETURN, END_FILE, END_RETURN, PLACEHOLDER } from './instruction-text.ts';
import { ERROR_NAME, REQUEST_ID } from './render-instructions.ts';

/** What a scripted render produces: its outputs (by name), or an error, or a delegation request. */
export interface RenderWork {
  outputs: Record<string, string>;
  summary: string;
  error?: { name: string; description: string };
  delegate?: { to: string; id: string; request: string };
}

/**
 * A literal reader of `buildRenderInstructions`' text: finds the workspace the text names, writes the outputs it
 * lists (or __error.md, or a delegation request) there, and returns the reply block that fits, filled in. Reads
 * nothing but the text; a text it cannot follow is an E_STATE error naming what was missing.
 */
export function followRender(text: string, work: RenderWork): string {
  const lines = text.split('\n');
  const root = /^\(<openprose-root> is (.+); every path below is relative to (runs\/[^/]+)\/\)$/;
  const rootLine = lines.map((l) => root.exec(l)).find(Boolean);
  if (!rootLine) throw missing('the "<openprose-root> is ..." line');
  const runDir = join(rootLine[1]!, rootLine[2]!);
  const write = (rel: string, body: string) => {
    mkdirSync(dirname(join(runDir, rel)), { recursive: true });
    writeFileSync(join(runDir, rel), body);
  };
  const returns = blocks(lines, BEGIN_RETURN, END_RETURN);
  const pick = (head: string) => returns.find((b) => b[0]?.startsWith(head)) ?? [];
  if (work.delegate) {
    const d = work.delegate;
    const block = pick('Delegate:');
    const i = block.indexOf(`Delegate: ${d.to}`);
    if (i < 0) throw missing(`a "Delegate: ${d.to}" block`);
    const request = block[i + 1]!.replace(REQUEST_ID, d.id);
    write(request.replace(/^Request: /, ''), d.request);
    return `${block[i]}\n${request}\n`;
  }
  if (work.error) {
    const file = blocks(lines, BEGIN_FILE, END_FILE)[0];
    const reply = pick('Render error:');
    const details = reply.find((l) => l.startsWith('Details: '));
    if (!file || !details) throw missing('the __error.md format and the error reply');
    const body = `${file.map((l) => l.replace(ERROR_NAME, work.error!.name)).join('\n')}\n`;
    write(
      details.slice('Details: '.length),
      body.replace('{description and any partial data}', work.error.description),
    );
    return `${reply.map((l) => l.replace(ERROR_NAME, work.error!.name)).join('\n')}\n`;
  }
  const reply = pick('Render complete:');
  if (!reply.length) throw missing('the "Render complete:" reply');
  for (const l of reply) {
    const out = /^\s+- ([^:]+): (\S+)$/.exec(l);
    if (!out) continue;
    const value = work.outputs[out[1]!];
    if (value === undefined) throw missing(`a value for output ${out[1]}`);
    write(out[2]!, value);
  }
  return `${reply.map((l) => l.replace(PLACEHOLDER.returnSummary, work.summary)).join('\n')}\n`;
}

function blocks(lines: string[], begin: string, end: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | undefined;
  for (const l of lines) {
    if (l === begin) cur = [];
    else if (l === end && cur) {
      out.push(cur);
      cur = undefined;
    } else cur?.push(l);
  }
  return out;
}

const missing = (what: string) =>
  new ProseError('E_STATE', `the render instructions have no ${what}`, {
    hint: 'build them with buildRenderInstructions',
  });
