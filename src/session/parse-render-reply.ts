import type { Finding } from '../verify/finding.ts';
import { renderFinding } from './render-rules.ts';

/** A value on a line of the reply. */
export interface At {
  value: string;
  line: number;
}

/** How a render ended: prose.md's two heads, session.md's two, or a delegation request (prose.md "Runtime Delegation"). */
export type RenderHead = 'complete' | 'error' | 'committed' | 'failed';

export interface RenderReply {
  head?: { kind: RenderHead; node: At };
  /** Keys after the head (Error, Details, Summary, World-model, Receipt, Fingerprints moved), each once. */
  fields: Map<string, At>;
  /** prose.md's "Outputs written:" list: `- name: path`. */
  outputs: { name: string; path: At }[];
  /** Present when the reply lists outputs (the key line). */
  outputsLine?: number;
  delegates: { name: At; request?: At }[];
  findings: Finding[];
  /** Lines that are neither a key of the reply nor blank. */
  extra: number[];
}

const HEADS: Record<string, RenderHead> = {
  'Render complete': 'complete',
  'Render error': 'error',
  'Render committed': 'committed',
  'Render failed': 'failed',
};
/** The keys only prose.md's form has, and those only session.md's has (decision render-reply); the rest are shared. */
const PROSE_KEYS = new Set(['Render complete', 'Render error', 'Outputs written']);
const SESSION_KEYS = new Set(['Render committed', 'Render failed', 'World-model', 'Receipt', 'Fingerprints moved']);
const SHARED_KEYS = new Set(['Error', 'Details', 'Summary']);
const V0_KEYS = new Set(['Binding written', 'Memory updated', 'Location', 'Segment', 'Execution ID']);
const PRIOR_STANDS = 'Prior world-model stands.';
const KEY_LINE = /^([A-Za-z][A-Za-z -]*?):(?:\s+(.*))?$/;
const OUTPUT_LINE = /^-\s+([^:\s][^:]*):\s+(\S.*)$/;

/**
 * Reads a render's reply in either wording the current texts give (decision render-reply): prose.md's "Render
 * complete: / Outputs written: / Summary:" or "Render error: / Error: / Details:", session.md's "Render committed: /
 * World-model: / Receipt: / Fingerprints moved: / Summary:" or "Render failed: / Error: / Details:", or a
 * "Delegate: / Request:" yield. Never throws: a reply of the v0 edition, one mixing the two forms, a repeated or
 * misplaced key are findings.
 */
export function parseRenderReply(text: string, file: string): RenderReply {
  const r: RenderReply = { fields: new Map(), outputs: [], delegates: [], findings: [], extra: [] };
  const at = (line: number) => ({ file, line });
  const seen = { prose: 0, session: 0, v0: 0 };
  let inOutputs = false;
  text.split(/\r?\n/).forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (!line) return;
    const out = inOutputs ? OUTPUT_LINE.exec(line) : null;
    if (out) return void r.outputs.push({ name: out[1]!.trim(), path: { value: out[2]!.trim(), line: n } });
    inOutputs = false;
    if (line === PRIOR_STANDS) return void (seen.session ||= n);
    const m = KEY_LINE.exec(line);
    const key = m?.[1];
    if (!m || key === undefined || !isKey(key)) return void r.extra.push(n);
    const value = (m[2] ?? '').trim();
    if (PROSE_KEYS.has(key)) seen.prose ||= n;
    if (SESSION_KEYS.has(key)) seen.session ||= n;
    if (V0_KEYS.has(key)) return void (seen.v0 ||= n);
    if (key === 'Outputs written') {
      if (r.outputsLine !== undefined)
        r.findings.push(renderFinding('render.line-form', 'a second "Outputs written:"', at(n)));
      r.outputsLine = n;
      inOutputs = true;
      return;
    }
    if (!value) return void r.findings.push(renderFinding('render.line-form', `"${key}:" has no value`, at(n)));
    // A v0 confirmation's Summary: is part of the v0 reply (render.reply-v0), not a misplaced key.
    if (seen.v0 && !r.head && key === 'Summary') return;
    keyLine(r, key, { value, line: n }, at);
  });
  if (seen.v0)
    r.findings.push(
      renderFinding(
        'render.reply-v0',
        'the reply has the v0 edition\'s lines ("Binding written:", "Location:", ...)',
        at(seen.v0),
        'write the outputs to workspace/{node}/ and return "Render complete: {node}" with "Outputs written:"',
      ),
    );
  if (seen.prose && seen.session)
    r.findings.push(
      renderFinding(
        'render.reply-mixed',
        `the reply mixes prose.md's form (line ${seen.prose}) and session.md's (line ${seen.session})`,
        at(Math.max(seen.prose, seen.session)),
        'return one form: prose.md\'s "Render complete:" / "Outputs written:" (what instructions prints)',
      ),
    );
  if (!r.head && !r.delegates.length && !seen.v0)
    r.findings.push(
      renderFinding('render.reply-missing', 'no "Render complete:", "Render error:" or "Delegate:" line', at(1)),
    );
  return r;
}

function isKey(key: string): boolean {
  return (
    key in HEADS ||
    PROSE_KEYS.has(key) ||
    SESSION_KEYS.has(key) ||
    SHARED_KEYS.has(key) ||
    V0_KEYS.has(key) ||
    key === 'Delegate' ||
    key === 'Request'
  );
}

/** One "Key: value" line of a render reply, after the v0 and list lines are handled. */
function keyLine(r: RenderReply, key: string, v: At, at: (line: number) => { file: string; line: number }): void {
  const bad = (msg: string) => r.findings.push(renderFinding('render.line-form', msg, at(v.line)));
  const head = HEADS[key];
  if (head) {
    if (r.head || r.delegates.length) return void bad(`a second head line "${key}:" (one render, one reply)`);
    r.head = { kind: head, node: v };
    return;
  }
  if (key === 'Delegate') {
    if (r.head) return void bad('"Delegate:" in a completion reply: a render yields or completes, not both');
    r.delegates.push({ name: v });
    return;
  }
  if (key === 'Request') {
    const last = r.delegates.at(-1);
    if (!last || last.request) return void bad('"Request:" that follows no "Delegate:" line');
    last.request = v;
    return;
  }
  if (!r.head) return void bad(`"${key}:" before the "Render ...:" line`);
  if (r.fields.has(key)) return void bad(`a second "${key}:"`);
  r.fields.set(key, v);
}
