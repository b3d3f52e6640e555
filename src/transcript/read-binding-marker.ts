import type { BindingKind } from '../core/model.ts';
import { bad, contValue, note, ok, type Continuation, type MarkerReading } from './marker-reading.ts';
import type { NarrationEvent } from './narration-event.ts';
import { readExecutionId, splitParams, type SplitLine } from './trailing-params.ts';
import { decodeValue, isPlaceholder, readJsonString, readToken } from './value-codec.ts';

/**
 * The markers that bind, read or remember values: `[Binding]`, `[Input]`, `[Output]`, and the store's `[Memory]`
 * and `[Segment]`. Values are JSON literals when the store wrote them; an LLM's `<result>` leaves the value unknown.
 */
export function readBinding(text: string, cont: Continuation[]): MarkerReading {
  const anon = /^Allocated anonymous name:\s*(.+)$/.exec(text);
  if (anon) return ok({ kind: 'anon', name: readToken(anon[1]!, 0)?.value ?? anon[1]! });
  const resolving = /^Resolving '([^']+)'/.exec(text);
  if (resolving) return ok({ kind: 'read', names: [resolving[1]!] });
  const reading = /^Reading (.+)$/.exec(text);
  if (reading) {
    const { head, params } = splitParams(reading[1]!);
    const id = readExecutionId(params.values);
    return ok({
      kind: 'read',
      names: head.split(',').map((n) => readToken(n, 0)?.value ?? n.trim()),
      ...(id !== undefined ? { executionId: id } : {}),
    });
  }
  const bound = /^([\p{L}_][\p{L}\p{N}_]*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*) bound$/u.exec(text);
  if (bound) return ok(...bound[1]!.split(',').map((n): NarrationEvent => ({ kind: 'bind', name: n.trim() })));
  const kind = /^(let|const|input|output)\s+/.exec(text);
  return readBindLine(kind ? text.slice(kind[0].length) : text, kind?.[1] as BindingKind | undefined, cont);
}

export function readInput(text: string, cont: Continuation[]): MarkerReading {
  if (/^input\s/.test(text)) return readBindLine(text.slice(6), 'input', cont);
  if (/^Inputs received:?\s*$/.test(text)) {
    const events: NarrationEvent[] = [];
    for (const c of cont) {
      const r = readBindLine(c.text, 'input', []);
      if (r.problem) return r;
      events.push(...r.events);
    }
    return ok(...events);
  }
  return note('Input', text);
}

/** `NAME = VALUE (params)` after the kind word, with an optional `Source:` continuation. */
export function readBindLine(text: string, bindingKind: BindingKind | undefined, cont: Continuation[]): MarkerReading {
  const name = readToken(text, 0);
  const eq = name && /^\s*=\s?/.exec(text.slice(name.end));
  if (!name || !eq) return bad('expected "NAME = VALUE"');
  const rest = text.slice(name.end + eq[0].length);
  let value: string | undefined;
  let sp: SplitLine;
  const lit = rest.startsWith('"') ? readJsonString(rest, 0) : undefined;
  const litParams = lit && splitParams(rest.slice(lit.end));
  if (lit && litParams && litParams.head.trim() === '') {
    sp = litParams;
    value = lit.value;
  } else if (lit) {
    // An LLM's expression (`"a" + "b"`): kept as raw text, as the seed's `{message: ...}` is.
    sp = splitParams(rest);
    value = sp.head.trim();
  } else {
    if (rest.startsWith('"')) return bad('the value literal is not terminated');
    sp = splitParams(rest);
    value = isPlaceholder(sp.head) ? undefined : sp.head.trim();
  }
  const id = readExecutionId(sp.params.values);
  const source = contValue(cont, 'Source');
  if (source === null) return bad('Source is not a JSON string literal');
  return ok({
    kind: 'bind',
    name: name.value,
    ...(bindingKind ? { bindingKind } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(id !== undefined ? { executionId: id } : {}),
    ...(source !== undefined ? { source } : {}),
  });
}

export function readMemory(text: string): MarkerReading {
  const m = /^Agent\s+/.exec(text);
  const agent = m && readToken(text, m[0].length);
  const colon = agent && /^ memory: /.exec(text.slice(agent.end));
  if (!agent || !colon) return bad('expected "Agent NAME memory: VALUE"');
  const v = decodeValue(text.slice(agent.end + colon[0].length));
  if (!v.exact) return bad('memory is not a JSON string literal');
  return ok({ kind: 'memory', agent: agent.value, memory: v.value });
}

export function readSegment(text: string, cont: Continuation[]): MarkerReading {
  const { head, params } = splitParams(text);
  const m = /^Agent\s+/.exec(head);
  const agent = m && readToken(head, m[0].length);
  const n = agent && /^ segment (\d+)$/.exec(head.slice(agent.end));
  const prompt = contValue(cont, 'Prompt');
  const summary = contValue(cont, 'Summary');
  if (
    !agent ||
    !n ||
    params.values.timestamp === undefined ||
    typeof prompt !== 'string' ||
    typeof summary !== 'string'
  ) {
    return bad('expected "Agent NAME segment N (timestamp: T)" with Prompt and Summary lines');
  }
  return ok({
    kind: 'segment',
    agent: agent.value,
    number: Number(n[1]),
    timestamp: params.values.timestamp,
    prompt,
    summary,
  });
}
