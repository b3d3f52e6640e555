import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isPair, isScalar, LineCounter, parseDocument, visit } from 'yaml';

/** A case file citing a decision id that has no row in the decisions table. */
export interface BadCitation {
  file: string;
  line: number;
  id: string;
  spec: string;
}

const ID = '[a-z][a-z0-9]*(?:-[a-z0-9]+)*';
// "decision names", "decisions execution-id and anon-numbering", "decisions a, b, c": the words after "decision(s)".
const CITATION = new RegExp(`\\bdecisions? (${ID}(?:(?:, | and )(?!decisions?\\b)${ID})*)`, 'g');

/** The decision ids a `spec:` text cites. Only `decision ID` and `decisions ID, ID and ID` count as citations. */
export function citedDecisions(spec: string): string[] {
  const out: string[] = [];
  for (const m of spec.matchAll(CITATION)) out.push(...m[1]!.split(/, | and /));
  return out;
}

/** Every `spec:` value of one YAML text (file level and case level) with its line. */
export function specsOf(text: string): { line: number; spec: string }[] {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const out: { line: number; spec: string }[] = [];
  visit(doc, {
    Pair(_, pair) {
      if (!isPair(pair) || !isScalar(pair.key) || pair.key.value !== 'spec') return;
      if (isScalar(pair.value) && typeof pair.value.value === 'string') {
        out.push({ line: lc.linePos(pair.value.range?.[0] ?? 0).line, spec: pair.value.value });
      }
    },
    Map(_, map) {
      if (!isMap(map)) return visit.SKIP;
      return undefined;
    },
  });
  return out;
}

/** Citations in the case files under `casesDir` whose id is not in `rowIds`. */
export function badCitations(casesDir: string, rowIds: ReadonlySet<string>): BadCitation[] {
  const bad: BadCitation[] = [];
  for (const path of yamlFiles(casesDir)) {
    const file = relative(process.cwd(), path) || path;
    for (const { line, spec } of specsOf(readFileSync(path, 'utf8'))) {
      for (const id of citedDecisions(spec)) if (!rowIds.has(id)) bad.push({ file, line, id, spec });
    }
  }
  return bad;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) return yamlFiles(p);
      return /\.ya?ml$/.test(e) ? [p] : [];
    });
}
