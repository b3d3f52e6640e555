/**
 * The status annotations of filesystem.md's Execution Trace, plus the two our filesystem backend writes for
 * outcomes the seed has no annotation for (decisions verify-trace-annotations).
 */
export type Annotation =
  { kind: 'written'; path: string } | { kind: 'status'; text: string } | { kind: 'unknown'; text: string };

// A comment that looks like an annotation: `# -->`, `# <--`, `# (`, `# [`. Other comments are the program's own.
const CANDIDATE = /(?:^|\s)#\s+((?:-->|<--|\(|\[).*?)\s*$/;
const WRITTEN = /^--> (bindings\/[^\s]+\.md)(?: \(complete\))?$/;
const FIXED = new Set(['<-- EXECUTING', '(complete)', '[not yet entered]', '[...next...]', '(skipped)']);
const RETRYING = /^<-- RETRYING \(attempt ([1-9]\d*)\/([1-9]\d*)\)$/;
const FAILED = /^<-- FAILED(?:: .*)?$/;

/** The annotation on one trace line, or undefined when the line carries none. */
export function traceAnnotation(line: string): Annotation | undefined {
  const m = CANDIDATE.exec(line);
  if (!m) return undefined;
  const text = m[1]!;
  const w = WRITTEN.exec(text);
  if (w) return { kind: 'written', path: w[1]! };
  if (FIXED.has(text) || FAILED.test(text)) return { kind: 'status', text };
  const r = RETRYING.exec(text);
  if (r && Number(r[1]) <= Number(r[2])) return { kind: 'status', text };
  return { kind: 'unknown', text };
}
