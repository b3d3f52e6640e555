/**
 * A forgiving read of state.md into its parts, each with 1-based line numbers, for checking. Unlike the filesystem
 * backend's parser it never throws: a hand-written state.md (no status:, no Event Log, no parent column) is read too,
 * and what is missing or malformed is left for the checks to report.
 */
export interface Line {
  text: string;
  line: number;
}

export interface MdTable {
  line: number;
  columns: string[];
  rows: { cells: string[]; line: number }[];
  /** Lines inside the table that are not `| ... |` rows. */
  malformed: Line[];
}

export interface MdSection {
  title: string;
  line: number;
  /** Body lines up to the next section of the same or a higher level. */
  body: Line[];
  subsections: MdSection[];
}

export interface StateMdDoc {
  heading: Line | undefined;
  /** `key: value` lines between the heading and the first blank line after them. */
  header: { key: string; value: string; line: number }[];
  /** Header lines that are not `key: value`. */
  badHeader: Line[];
  sections: MdSection[];
}

const FENCE = /^(`{3,}|~{3,})/;

export function parseStateMdDoc(text: string): StateMdDoc {
  const all: Line[] = text.split('\n').map((t, i) => ({ text: t.replace(/\r$/, ''), line: i + 1 }));
  let i = 0;
  while (i < all.length && all[i]!.text.trim() === '') i++;
  const heading = /^# /.test(all[i]?.text ?? '') ? all[i++] : undefined;
  while (i < all.length && all[i]!.text.trim() === '') i++;
  const header: StateMdDoc['header'] = [];
  const badHeader: Line[] = [];
  for (; i < all.length && all[i]!.text.trim() !== '' && !all[i]!.text.startsWith('## '); i++) {
    const m = /^([A-Za-z_][\w-]*):\s?(.*)$/.exec(all[i]!.text);
    if (m) header.push({ key: m[1]!, value: m[2]!.trim(), line: all[i]!.line });
    else badHeader.push(all[i]!);
  }
  return { heading, header, badHeader, sections: splitSections(all.slice(i), 2) };
}

/** Splits lines at `##` (level 2) or `###` (level 3) headings that are outside fenced blocks. */
function splitSections(lines: Line[], level: number): MdSection[] {
  const marker = '#'.repeat(level) + ' ';
  const out: MdSection[] = [];
  let current: MdSection | undefined;
  let fence: string | undefined;
  for (const l of lines) {
    const f = FENCE.exec(l.text);
    if (f) fence = fence === undefined ? f[1] : l.text.trim() === fence ? undefined : fence;
    if (fence === undefined && !f && l.text.startsWith(marker)) {
      current = { title: l.text.slice(marker.length).trim(), line: l.line, body: [], subsections: [] };
      out.push(current);
    } else if (current) {
      current.body.push(l);
    }
  }
  if (level === 2) for (const s of out) s.subsections = splitSections(s.body, 3);
  return out;
}

/** The first pipe table in `body`, if any. */
export function firstTable(body: Line[]): MdTable | undefined {
  const start = body.findIndex((l) => l.text.trimStart().startsWith('|'));
  if (start === -1) return undefined;
  const head = body[start]!;
  const table: MdTable = { line: head.line, columns: cells(head.text), rows: [], malformed: [] };
  const sep = body[start + 1];
  let j = start + 1;
  if (sep && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(sep.text)) j++;
  else table.malformed.push(sep ?? { text: '', line: head.line + 1 });
  for (; j < body.length; j++) {
    const l = body[j]!;
    if (l.text.trim() === '') break;
    if (!l.text.trimStart().startsWith('|')) {
      table.malformed.push(l);
      continue;
    }
    table.rows.push({ cells: cells(l.text), line: l.line });
  }
  return table;
}

function cells(row: string): string[] {
  const t = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return t.split('|').map((c) => c.trim());
}

export function section(doc: { sections: MdSection[] } | MdSection, title: string): MdSection | undefined {
  const list = 'sections' in doc ? doc.sections : doc.subsections;
  return list.find((s) => s.title.toLowerCase() === title.toLowerCase());
}
