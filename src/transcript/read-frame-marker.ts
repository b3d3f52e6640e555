import { bad, ok, type Continuation, type MarkerReading } from './marker-reading.ts';
import { readInt, splitParams } from './trailing-params.ts';
import { readJsonString, readToken } from './value-codec.ts';

/**
 * The markers of block frames: `[Frame+] Entering block: NAME (execution_id: N, depth: D)` with its Arguments and
 * Parent lines, `[Frame-] Exiting block`, and the `[CallStack]` table of open frames.
 */
export function readFrameEnter(text: string, cont: Continuation[]): MarkerReading {
  const { head, params } = splitParams(text);
  const m = /^Entering block:\s*/.exec(head);
  const id = readInt(params.values, 'execution_id');
  if (!m || id === undefined) return bad('expected "Entering block: NAME (execution_id: N, depth: D)"');
  const name = readToken(head, m[0].length);
  if (!name) return bad('the block has no name');
  const depth = readInt(params.values, 'depth');
  const argLine = cont.find((c) => c.text.startsWith('Arguments:'));
  const args = argLine ? parseArgs(argLine.text.slice(10).trim()) : undefined;
  if (argLine && !args) return bad('Arguments are not readable');
  const parentLine = cont.find((c) => /^Parent:/.test(c.text));
  const pm = parentLine && /^Parent:\s*execution_id\s+(\d+)\s*$/.exec(parentLine.text);
  if (parentLine && !pm) return bad('expected "Parent: execution_id N"');
  return ok({
    kind: 'frame-enter',
    executionId: id,
    block: name.value,
    ...(pm ? { parent: Number(pm[1]) } : {}),
    ...(depth !== undefined ? { depth } : {}),
    ...(args ? { args } : {}),
  });
}

/** `chunk=data, depth=5` (seed), `chunk="data"` (store) or a JSON object. */
export function parseArgs(s: string): Record<string, string> | undefined {
  if (s.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(s);
      if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'))
        return v as Record<string, string>;
    } catch {
      /* falls through to the seed's form */
    }
  }
  // Entries, made an object at the end: assigning `out['__proto__']` would set the prototype, not a key.
  const out: [string, string][] = [];
  let i = 0;
  while (i < s.length) {
    const k = /^\s*([A-Za-z_][\w-]*)=/.exec(s.slice(i));
    if (!k) return undefined;
    i += k[0].length;
    if (s[i] === '"') {
      const lit = readJsonString(s, i);
      if (!lit) return undefined;
      out.push([k[1]!, lit.value]);
      i = lit.end;
    } else {
      const next = /,\s*[A-Za-z_][\w-]*=/.exec(s.slice(i));
      const end = next ? i + next.index : s.length;
      out.push([k[1]!, s.slice(i, end).trim()]);
      i = end;
    }
    const comma = /^\s*,\s*/.exec(s.slice(i));
    if (comma) i += comma[0].length;
    else if (i < s.length) return undefined;
  }
  return Object.fromEntries(out);
}

export function readFrameExit(text: string): MarkerReading {
  const { head, params } = splitParams(text);
  const m = /^Exiting block(?::\s*(.*))?$/.exec(head);
  const id = readInt(params.values, 'execution_id');
  if (!m || id === undefined) return bad('expected "Exiting block: NAME (execution_id: N)"');
  const name = m[1] ? readToken(m[1], 0)?.value : undefined;
  return ok({
    kind: 'frame-exit',
    executionId: id,
    ...(name !== undefined ? { block: name } : {}),
    status: params.values.status === 'failed' ? 'failed' : 'completed',
  });
}

export function readCallStack(text: string, cont: Continuation[]): MarkerReading {
  const { params } = splitParams(text.replace(/:\s*$/, ''));
  const frames = [];
  for (const c of cont) {
    const m = /^execution_id:\s*(\d+)\s*\|\s*block:\s*(.+?)\s*\|\s*depth:\s*(\d+)\s*\|\s*status:\s*(\w+)\s*$/.exec(
      c.text,
    );
    if (!m) return bad(`call stack row not readable: ${c.text}`);
    const block = readToken(m[2]!, 0)?.value ?? m[2]!;
    frames.push({ executionId: Number(m[1]), block, depth: Number(m[3]), status: m[4]! });
  }
  const depth = readInt(params.values, 'depth');
  return ok({ kind: 'callstack', frames, ...(depth !== undefined ? { depth } : {}) });
}
