import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { DEFAULT_DECISIONS } from '../core/decisions.ts';
import { EDITION_NAMES, isEdition, type Edition } from '../core/editions.ts';
import type { DecisionRow } from '../core/decisions/decision-row.ts';
import { ProseError } from '../core/errors.ts';

/**
 * The files of the suite's `decisions/` folder, in the order docs/decisions.md shows their rows. A file there that
 * is not listed is an error, so a new one cannot drop out of the table unseen.
 */
export const DECISION_FILES = [
  'core',
  'contract',
  'filesystem',
  'canon',
  'sqlite',
  'postgres',
  'verify',
  'world-model',
  'session',
  'in-context',
  'plugin',
  'durability',
  'platforms',
  'editions',
] as const;

const TEXT_KEYS = ['id', 'area', 'spec', 'choice', 'why'] as const;
const ROW_KEYS = new Set<string>([...TEXT_KEYS, 'setting', 'editions']);

/** Every row of the decisions table, read from `<suiteDir>/decisions/*.yaml`; every error names file and line. */
export function loadDecisionRows(suiteDir: string): DecisionRow[] {
  const dir = join(suiteDir, 'decisions');
  const known = new Set(DECISION_FILES.map((f) => `${f}.yaml`));
  for (const entry of readdirSync(dir)) {
    if (!known.has(entry))
      throw new ProseError('E_FORMAT', `${entry} is not one of the decision files`, {
        location: { file: relative(process.cwd(), join(dir, entry)) },
        hint: 'list it in DECISION_FILES (src/conformance/load-decisions.ts), in the order docs/decisions.md shows it',
      });
  }
  const seen = new Map<string, string>();
  return DECISION_FILES.flatMap((name) => {
    const path = join(dir, `${name}.yaml`);
    const file = relative(process.cwd(), path) || path;
    return parseDecisionFile(readFileSync(path, 'utf8'), file).map(({ row, line }) => {
      const first = seen.get(row.id);
      if (first)
        throw new ProseError('E_FORMAT', `decision ${row.id} has a row already, at ${first}`, {
          location: { file, line, field: 'id' },
        });
      seen.set(row.id, `${file}:${line}`);
      return row;
    });
  });
}

/** The rows of one decisions file (a list of mappings), each with the line it starts on. */
export function parseDecisionFile(text: string, file: string): { row: DecisionRow; line: number }[] {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true });
  const lineOf = (n: Node | null | undefined) => (n?.range ? lc.linePos(n.range[0]).line : 1);
  const fail = (message: string, line: number, field?: string): never => {
    throw new ProseError('E_FORMAT', message, { location: { file, line, ...(field ? { field } : {}) } });
  };
  const parseError = doc.errors[0];
  if (parseError) fail(parseError.message.split('\n')[0]!, lc.linePos(parseError.pos[0]).line);
  if (!isSeq(doc.contents)) return fail('a decisions file is a list of rows', lineOf(doc.contents));
  return doc.contents.items.map((item) => {
    const line = lineOf(item as Node);
    if (!isMap(item)) return fail('a decision row is a mapping of id, area, spec, choice, why', line);
    const row: Record<string, string> = {};
    let editions: Edition[] | undefined;
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const at = lineOf(pair.key as Node);
      if (!ROW_KEYS.has(key)) fail(`unknown key ${JSON.stringify(key)} in a decision row`, at, key);
      if (key === 'editions') {
        editions = parseEditions(pair.value as Node | null, at, fail);
        continue;
      }
      if (!isScalar(pair.value) || typeof pair.value.value !== 'string' || pair.value.value.trim() === '')
        fail(`"${key}" must be a non-empty string`, at, key);
      row[key] = (pair.value as { value: string }).value;
    }
    for (const k of TEXT_KEYS) if (row[k] === undefined) fail(`a decision row needs "${k}"`, line, k);
    if (!/^[a-z0-9][a-z0-9-]*$/.test(row.id!))
      fail(`decision id ${JSON.stringify(row.id)} is not kebab-case`, line, 'id');
    if (row.setting !== undefined && !(row.setting in DEFAULT_DECISIONS))
      fail(`"setting" ${JSON.stringify(row.setting)} is not a configurable decision`, line, 'setting');
    return { row: { ...(row as unknown as DecisionRow), ...(editions ? { editions } : {}) }, line };
  });
}

/** `editions: [v0]`, `[current]` or both: a non-empty list of edition names, each once. */
function parseEditions(
  value: Node | null,
  at: number,
  fail: (m: string, line: number, field: string) => never,
): Edition[] {
  const items = isSeq(value) ? value.items.map((i) => (isScalar(i) ? i.value : undefined)) : [];
  const names = items.filter(isEdition);
  if (names.length === 0 || names.length !== items.length || new Set(names).size !== names.length)
    fail(`"editions" is a list of edition names, each once: ${EDITION_NAMES.join(', ')}`, at, 'editions');
  return names;
}
