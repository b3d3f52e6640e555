import { join } from 'node:path';
import { checkWorkspaceFile, placeOf, readTrimmed, type RenderCheck } from './render-paths.ts';
import type { RenderReply } from './parse-render-reply.ts';
import { renderFinding } from './render-rules.ts';

/** Both headings the texts give (decision error-file-heading): fs/prose.md `# Error: name`, session.md 3.2 `# Render failed: name`. */
const HEADING = /^# (?:Error|Render failed): (\S+)\s*$/;

/**
 * An error reply ("Render error:" or "Render failed:"): its Error: name, its Details: naming
 * workspace/{node}/__error.md, and that file's first line giving the same name.
 */
export function checkRenderError(reply: RenderReply, c: RenderCheck): void {
  const line = reply.head!.node.line;
  const error = reply.fields.get('Error');
  const details = reply.fields.get('Details');
  const bad = (msg: string, at: number) =>
    c.out.push(renderFinding('render.error-file', msg, { file: c.file, line: at }));
  if (!error)
    c.out.push(
      renderFinding('render.line-form', 'an error reply has an "Error: {error-name}" line', { file: c.file, line }),
    );
  const errorFile = join(c.runDir, 'workspace', c.node, '__error.md');
  if (!details) bad(`no "Details: workspace/${c.node}/__error.md"`, line);
  else if (placeOf(c, details.value).abs !== errorFile)
    bad(`Details: ${details.value} is not workspace/${c.node}/__error.md`, details.line);
  else if (!checkWorkspaceFile(details, c, 'render.error-file', 'the error file')) return;
  const text = readTrimmed(errorFile);
  if (text === undefined) {
    if (!details || placeOf(c, details.value).abs !== errorFile)
      bad(`workspace/${c.node}/__error.md does not exist`, line);
    return;
  }
  const first = text.split('\n')[0] ?? '';
  const name = HEADING.exec(first)?.[1];
  if (name === undefined)
    bad(`__error.md starts ${JSON.stringify(first.slice(0, 80))}, not "# Error: {error-name}"`, details?.line ?? line);
  else if (error && error.value !== name) bad(`Error: ${error.value}, but __error.md names ${name}`, error.line);
}
