/**
 * The `Location:` of a confirmation, in the three forms the seeds write:
 * - directory: a path, `.prose/runs/{id}/bindings/research.md` (relative to the project, absolute, or `~/...`);
 * - sqlite: `.prose/runs/{id}/state.db (bindings table, name='research', execution_id=NULL)`, and for memory
 *   `{db} (agents table, name='captain')`;
 * - postgres: `openprose.bindings WHERE name='research' AND run_id='...' [AND execution_id=43]` (the current
 *   postgres.md writes `AND execution_id IS NULL` at root scope), and for memory
 *   `openprose.agents WHERE name='captain' AND scope='execution' [AND run_id='...']`.
 */
export type Location =
  | { form: 'directory'; path: string }
  | { form: 'sqlite'; db: string; table: 'bindings' | 'agents'; name: string; executionId: number | null }
  | { form: 'postgres'; table: 'bindings' | 'agents'; where: Record<string, string | number | null> };

const LIT = `'((?:[^']|'')*)'`;
const SQLITE = new RegExp(`^(.+?) \\((bindings|agents) table, name=${LIT}(?:, execution_id=(NULL|\\d+))?\\)$`);
const PG = /^openprose\.(bindings|agents) WHERE (.+)$/;
const PG_TERM = new RegExp(`^(\\w+)\\s*(?:=\\s*(?:${LIT}|(\\d+)|(NULL))|\\s+IS\\s+(NULL))$`, 'i');

/** The location, or a reason it has no known form. */
export function parseLocation(text: string): Location | { error: string } {
  const t = text.trim();
  if (t === '') return { error: 'the Location is empty' };
  const pg = PG.exec(t);
  if (pg) {
    const where: Record<string, string | number | null> = {};
    for (const term of pg[2]!.split(/\s+AND\s+/i)) {
      const m = PG_TERM.exec(term.trim());
      if (!m) return { error: `cannot read ${JSON.stringify(term.trim())} in the WHERE of the location` };
      if (m[1]! in where) return { error: `${m[1]} appears twice in the location` };
      where[m[1]!.toLowerCase()] =
        m[2] !== undefined ? m[2].replaceAll("''", "'") : m[3] !== undefined ? Number(m[3]) : null;
    }
    return { form: 'postgres', table: pg[1] as 'bindings', where };
  }
  if (t.startsWith('openprose.'))
    return { error: `expected "openprose.bindings WHERE name='...' AND run_id='...'", got ${JSON.stringify(t)}` };
  const sq = SQLITE.exec(t);
  if (sq) {
    if (sq[2] === 'bindings' && sq[4] === undefined)
      return { error: 'a bindings location names execution_id (NULL at root)' };
    return {
      form: 'sqlite',
      db: sq[1]!,
      table: sq[2] as 'bindings',
      name: sq[3]!.replaceAll("''", "'"),
      executionId: sq[4] === undefined || sq[4] === 'NULL' ? null : Number(sq[4]),
    };
  }
  if (/\((bindings|agents) table/.test(t))
    return { error: `expected "{db} (bindings table, name='...', execution_id=NULL|N)", got ${JSON.stringify(t)}` };
  if (/\s/.test(t) && !/\.md$/.test(t))
    return { error: `${JSON.stringify(t)} is neither a path nor database coordinates` };
  return { form: 'directory', path: t };
}

/** `captain-003.md` -> agent and number; undefined when the name is not `{agent}-{digits}.md`. */
export function parseSegmentRef(text: string): { agent: string; number: number; digits: string } | undefined {
  const m = /^(.+)-(\d{3,})\.md$/.exec(text.trim());
  return m ? { agent: m[1]!, number: Number(m[2]), digits: m[2]! } : undefined;
}
