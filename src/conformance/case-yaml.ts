import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isScalar, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { ProseError } from '../core/errors.ts';
import type { SourcePos } from './source-pos.ts';

/** A suite file parsed with its line counter: every loader reports file, line and field from it. */
export interface Parsed {
  doc: ReturnType<typeof parseDocument>;
  lc: LineCounter;
  file: string;
}

export function readYaml(path: string): Parsed {
  const file = relative(process.cwd(), path) || path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProseError('E_CASE', `cannot read ${file}: ${(err as Error).message}`);
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const { line, col } = lc.linePos(first.pos[0]);
    throw new ProseError('E_CASE', first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), {
      location: { file, line, column: col },
    });
  }
  return { doc, lc, file };
}

/** A node as plain data, with anchors and aliases resolved against its document (cases may share values). */
export function toJs(p: Parsed, node: Node): unknown {
  return node.toJS(p.doc);
}

export function caseError(file: string, line: number, message: string, field?: string): ProseError {
  return new ProseError('E_CASE', message, { location: { file, line, ...(field ? { field } : {}) } });
}

export function checkKeys(p: Parsed, map: YAMLMap, allowed: Set<string>, field: string): void {
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!allowed.has(key)) {
      const line = (pair.key as Node)?.range ? p.lc.linePos((pair.key as Node).range![0]).line : 1;
      throw caseError(
        p.file,
        line,
        `unknown field "${key}"; allowed here: ${[...allowed].join(', ')}`,
        `${field}.${key}`,
      );
    }
  }
}

export function str(p: Parsed, map: YAMLMap, key: string, required: boolean): string | undefined {
  const v = map.get(key);
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length === 0) {
    const line = map.range ? p.lc.linePos(map.range[0]).line : 1;
    throw caseError(p.file, line, `"${key}" must be a non-empty string`, key);
  }
  return v;
}

/** A step's mapping under `key`, its fields checked against `allowed`, and a reader of its whole numbers. */
export function stepFields(p: Parsed, node: YAMLMap, key: string, field: string, pos: SourcePos, allowed: string[]) {
  checkKeys(p, node, new Set([key]), field);
  const body = (toJs(p, node.get(key, true) as Node) ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(body))
    if (!allowed.includes(k))
      throw caseError(p.file, pos.line, `unknown field "${k}"; allowed: ${allowed.join(', ')}`, `${field}.${key}.${k}`);
  const int = (k: string, min: number, d?: number): number => {
    const v = body[k] ?? d;
    if (!Number.isSafeInteger(v) || (v as number) < min)
      throw caseError(p.file, pos.line, `"${k}" must be a whole number of at least ${min}`, `${field}.${key}.${k}`);
    return v as number;
  };
  return { body, int };
}
