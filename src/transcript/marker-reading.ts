import type { NarrationEvent } from './narration-event.ts';
import { decodeValue } from './value-codec.ts';

export interface Continuation {
  text: string;
  line: number;
}

/** What a marker group said, or why it could not be read (the caller turns `problem` into a `parse.malformed`). */
export interface MarkerReading {
  events: NarrationEvent[];
  problem?: string;
}

export const ok = (...events: NarrationEvent[]): MarkerReading => ({ events });
export const bad = (problem: string): MarkerReading => ({ events: [], problem });
export const note = (marker: string, text: string): MarkerReading => ok({ kind: 'note', marker, text });

/** The value of a `Label: "json"` continuation line: undefined when absent, null when not a JSON literal. */
export function contValue(cont: Continuation[], label: string): string | undefined | null {
  const c = cont.find((x) => x.text.startsWith(`${label}: `));
  if (!c) return undefined;
  const r = decodeValue(c.text.slice(label.length + 2));
  return r.exact ? r.value : null;
}
