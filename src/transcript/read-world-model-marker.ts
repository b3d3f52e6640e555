import { bad, contValue, ok, type Continuation, type MarkerReading } from './marker-reading.ts';
import { decodeValue, readToken } from './value-codec.ts';

/**
 * `[WorldModel]` lines: a version's bytes, the published pointer, the workspace and the run envelope, narrated so the
 * canonical store "still holds" in conversation (HEAD in-context.md). Bytes are base64 in a JSON literal.
 */
export function readWorldModel(text: string, cont: Continuation[]): MarkerReading {
  const m = /^(Version stored|Published|Workspace):\s*/.exec(text);
  if (m) {
    const node = readToken(text, m[0].length);
    if (!node) return bad('the node has no name');
    const address = text.slice(node.end).trim();
    if (m[1] === 'Workspace') {
      const bytes = contValue(cont, 'Bytes');
      return typeof bytes === 'string'
        ? ok({ kind: 'wm-workspace', node: node.value, bytes })
        : bad('a workspace needs a Bytes line');
    }
    if (!/^\S+$/.test(address)) return bad('expected "NODE ADDRESS"');
    if (m[1] === 'Published') return ok({ kind: 'wm-publish', node: node.value, address });
    const bytes = contValue(cont, 'Bytes');
    return typeof bytes === 'string'
      ? ok({ kind: 'wm-version', node: node.value, address, bytes })
      : bad('a version needs a Bytes line');
  }
  if (/^Envelope\s*$/.test(text)) {
    const intent = contValue(cont, 'Compiled intent');
    const root = contValue(cont, 'Root source');
    const sources = contValue(cont, 'Sources');
    const parsed = typeof sources === 'string' ? parseSources(sources) : undefined;
    if (typeof intent !== 'string' || typeof root !== 'string' || !parsed)
      return bad('an envelope needs Compiled intent, Root source and Sources lines');
    return ok({ kind: 'envelope', compiledIntentJson: intent, rootSource: root, sources: parsed });
  }
  return ok({ kind: 'note', marker: 'WorldModel', text });
}

function parseSources(json: string): Record<string, string> | undefined {
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'))
      return v as Record<string, string>;
  } catch {
    /* not ours */
  }
  return undefined;
}

/** `[Receipt] NODE: "canonical JSON"`: one receipt of the node's chain, as the text it was committed as. */
export function readReceipt(text: string): MarkerReading {
  const node = readToken(text, 0);
  const colon = node && /^:\s*/.exec(text.slice(node.end));
  if (!node || !colon) return bad('expected "[Receipt] NODE: RECEIPT"');
  const v = decodeValue(text.slice(node.end + colon[0].length));
  return v.exact
    ? ok({ kind: 'receipt', node: node.value, receipt: v.value })
    : bad('a receipt is not a JSON string literal');
}
