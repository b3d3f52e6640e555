import { readFileSync } from 'node:fs';
import type { Suite } from './case-types.ts';

/** Where a case is written and its YAML as written, for reports that show a failing case beside its result. */
export interface CaseSource {
  file: string;
  line: number;
  yaml: string;
}

/**
 * Each case's own lines of its file: from its `- id:` line to the line before the next case of the same file (or
 * the end), trailing blank and comment lines dropped. A file that cannot be read again gives no source, not an error:
 * the report still shows where the case is.
 */
export function caseSources(suite: Suite): Map<string, CaseSource> {
  const out = new Map<string, CaseSource>();
  const byFile = new Map<string, { id: string; line: number }[]>();
  for (const c of suite.cases)
    byFile.set(c.pos.file, [...(byFile.get(c.pos.file) ?? []), { id: c.id, line: c.pos.line }]);
  for (const [file, cases] of byFile) {
    let lines: string[];
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch {
      continue;
    }
    cases.sort((a, b) => a.line - b.line);
    for (const [i, c] of cases.entries()) {
      const end = cases[i + 1]?.line ?? lines.length + 1;
      const own = lines.slice(c.line - 1, end - 1);
      while (own.length && /^\s*(#.*)?$/.test(own.at(-1)!)) own.pop();
      out.set(c.id, { file, line: c.line, yaml: dedent(own).join('\n') });
    }
  }
  return out;
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return Number.isFinite(indent) ? lines.map((l) => l.slice(indent)) : lines;
}
