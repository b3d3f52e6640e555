import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Finding } from '../verify/finding.ts';
import { checkRenderError } from './check-render-error.ts';
import { parseRenderReply, type RenderReply } from './parse-render-reply.ts';
import { checkWorkspaceFile, escape, readTrimmed, type RenderCheck } from './render-paths.ts';
import { renderFinding } from './render-rules.ts';

export interface RenderReplyOptions {
  /** How findings name the reply. */
  file: string;
  /** The `<openprose-root>` above `runs/` (default: the run directory's grandparent). */
  projectDir?: string;
  /** The node the VM rendered, when known; else the node the reply names. */
  node?: string;
  summaryMaxChars: number;
}

/**
 * Checks a render's reply (decision render-reply) against the run at `runDir` (`<openprose-root>/runs/{id}/`):
 * the outputs it lists exist in workspace/{node}/, nothing it names lies in world-model/ or state/ (the VM alone
 * commits), an error reply has its __error.md, session.md's World-model: and Receipt: agree with the run, and a
 * delegation request names its file under __delegate/ (decision render-reply-check). Never throws.
 */
export function checkRenderReply(text: string, runDir: string, opts: RenderReplyOptions): Finding[] {
  const reply = parseRenderReply(text, opts.file);
  const out = [...reply.findings];
  if (reply.extra.length)
    out.push(
      renderFinding('render.extra-text', `${reply.extra.length} line(s) besides the reply (the VM ignores them)`, {
        file: opts.file,
        line: reply.extra[0]!,
      }),
    );
  const node = opts.node ?? reply.head?.node.value ?? nodeOfRequest(reply);
  if (node === undefined) return out;
  const c: RenderCheck = {
    runDir,
    projectDir: opts.projectDir ?? resolve(runDir, '..', '..'),
    node,
    file: opts.file,
    out,
  };
  if (reply.head && reply.head.node.value !== node)
    out.push(
      renderFinding('render.node-mismatch', `the VM rendered ${node}, the reply names ${reply.head.node.value}`, {
        file: c.file,
        line: reply.head.node.line,
      }),
    );
  const kind = reply.head?.kind;
  if (kind === 'complete' || kind === 'committed') {
    checkSummary(reply, c, opts.summaryMaxChars);
    if (kind === 'complete') checkOutputs(reply, c);
    else checkCommitted(reply, c);
    if (existsSync(join(runDir, 'workspace', node, '__error.md')))
      out.push(
        renderFinding('render.error-file-unexpected', `the render completed but left workspace/${node}/__error.md`, {
          file: c.file,
          line: reply.head!.node.line,
        }),
      );
  } else if (kind === 'error' || kind === 'failed') checkRenderError(reply, c);
  else checkDelegates(reply, c);
  return out;
}

function checkSummary(reply: RenderReply, c: RenderCheck, max: number): void {
  const s = reply.fields.get('Summary');
  const line = s?.line ?? reply.head!.node.line;
  if (!s) c.out.push(renderFinding('render.summary', 'no "Summary:" line', { file: c.file, line }));
  else if ([...s.value].length > max)
    c.out.push(
      renderFinding('render.summary', `the Summary has ${[...s.value].length} characters (at most ${max})`, {
        file: c.file,
        line,
      }),
    );
}

/** prose.md's "Outputs written:": each entry a file in the node's workspace. */
function checkOutputs(reply: RenderReply, c: RenderCheck): void {
  if (reply.outputsLine === undefined || !reply.outputs.length)
    c.out.push(
      renderFinding('render.line-form', 'no "Outputs written:" list of "- name: workspace/{node}/name.md"', {
        file: c.file,
        line: reply.outputsLine ?? reply.head!.node.line,
      }),
    );
  for (const o of reply.outputs) checkWorkspaceFile(o.path, c, 'render.output-missing', `output ${o.name}`);
}

/** session.md 4.2: World-model: names the node's published world-model at its current address; Receipt: its status. */
function checkCommitted(reply: RenderReply, c: RenderCheck): void {
  const wm = reply.fields.get('World-model');
  const receipt = reply.fields.get('Receipt');
  const line = reply.head!.node.line;
  if (!wm || !receipt)
    c.out.push(
      renderFinding('render.line-form', 'a "Render committed:" reply has World-model: and Receipt:', {
        file: c.file,
        line,
      }),
    );
  if (wm) {
    const m = /^(\S+)(?:\s+\((\S+)\))?$/.exec(wm.value);
    const named =
      m && new RegExp(`(^|/)(world-model|state/world-models?)/${escape(c.node)}(/published)?/?$`).test(m[1]!);
    const version = readTrimmed(join(c.runDir, 'world-model', c.node, '.version'));
    const where = { file: c.file, line: wm.line };
    if (!named)
      c.out.push(renderFinding('render.world-model-mismatch', `${wm.value} is not ${c.node}'s world-model`, where));
    else if (version === undefined)
      c.out.push(
        renderFinding('render.world-model-mismatch', `world-model/${c.node}/ has no committed .version`, where),
      );
    else if (m[2] !== undefined && m[2] !== version)
      c.out.push(renderFinding('render.world-model-mismatch', `the reply says ${m[2]}, .version is ${version}`, where));
  }
  if (receipt) {
    const status = newestStatus(join(c.runDir, 'receipts', `${c.node}.jsonl`));
    if (status !== receipt.value)
      c.out.push(
        renderFinding(
          'render.receipt-mismatch',
          `Receipt: ${receipt.value}, but the newest receipt of ${c.node} is ${status ?? 'absent'}`,
          { file: c.file, line: receipt.line },
        ),
      );
  }
}

/** prose.md "Runtime Delegation": Request: workspace/{node}/__delegate/{delegate}/{id}.md, written before the yield. */
function checkDelegates(reply: RenderReply, c: RenderCheck): void {
  for (const d of reply.delegates) {
    if (!d.request) {
      c.out.push(
        renderFinding('render.delegate-request', `Delegate: ${d.name.value} has no Request: line`, {
          file: c.file,
          line: d.name.line,
        }),
      );
      continue;
    }
    const want = new RegExp(`(^|/)workspace/${escape(c.node)}/__delegate/${escape(d.name.value)}/[^/]+\\.md$`);
    if (!want.test(d.request.value) || d.request.value.endsWith('-response.md'))
      c.out.push(
        renderFinding(
          'render.delegate-request',
          `Request: ${d.request.value} is not workspace/${c.node}/__delegate/${d.name.value}/{id}.md`,
          { file: c.file, line: d.request.line },
        ),
      );
    else checkWorkspaceFile(d.request, c, 'render.delegate-request', `the request to ${d.name.value}`);
  }
}

function nodeOfRequest(reply: RenderReply): string | undefined {
  const p = reply.delegates.find((d) => d.request)?.request?.value;
  return p === undefined ? undefined : /(?:^|\/)workspace\/([^/]+)\/__delegate\//.exec(p)?.[1];
}

/** The status of the last receipt line of a ledger; undefined when there is none or it is not JSON. */
function newestStatus(p: string): string | undefined {
  const last = readTrimmed(p)?.split('\n').at(-1);
  if (!last) return undefined;
  try {
    const v = JSON.parse(last) as { status?: unknown };
    return typeof v.status === 'string' ? v.status : undefined;
  } catch {
    return undefined;
  }
}
