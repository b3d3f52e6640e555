import { join, relative, sep } from 'node:path';
import { DEFAULT_EDITION, editionLayout } from '../core/editions.ts';
import type { Finding } from '../verify/finding.ts';
import { bindingKindColumn } from './edition-paths.ts';
import { isInside, type RunTarget } from './run-target.ts';
import { finding } from './session-rules.ts';

/**
 * What tells a current-edition run's reply or rows from v0's (decision current-sql-subagent): a location under
 * `.prose/` (v0 sqlite.md "Database Location") and a bindings table without the current `binding` column.
 */

/**
 * In a current-edition run, a location under the project's or the home directory's `.prose/` names v0's tree: the
 * finding (`want`: where the current sqlite.md puts it, as shown to the user), else undefined.
 */
export function otherEditionPath(
  t: RunTarget,
  abs: string,
  want: string,
  at: { file: string; line: number },
): Finding | undefined {
  if (t.edition !== 'current') return undefined;
  const v0Dir = editionLayout(DEFAULT_EDITION).runsDir.split('/')[0]!;
  const base = [t.projectDir, t.homeDir].find((b) => isInside(join(b, v0Dir), abs));
  if (base === undefined) return undefined;
  const shown = `${base === t.projectDir ? '' : '~/'}${relative(base, abs).split(sep).join('/')}`;
  return finding(
    'message.location-edition',
    `${shown} is where the v0 texts put it; this run is of the current edition`,
    at,
    `the current sqlite.md puts it at ${want}`,
  );
}

/**
 * The bindings rows a query reads, or undefined when the table lacks the edition's column for the binding's kind
 * (a v0 table, `kind`, in a current-edition run): that is a finding, not a crash. Other errors go to the caller.
 */
export async function readBindingRows(
  read: () => Promise<Record<string, unknown>[]>,
  t: RunTarget,
  table: string,
  out: Finding[],
): Promise<Record<string, unknown>[] | undefined> {
  try {
    return await read();
  } catch (err) {
    const col = bindingKindColumn(t);
    const msg = err instanceof Error ? err.message : String(err);
    // SQLite: "no such column: binding"; PostgreSQL: column "binding" does not exist.
    if (!new RegExp(`no such column: ${col}\\b|column "?${col}"? does not exist`, 'i').test(msg)) throw err;
    const other = t.edition === 'current' ? editionLayout(DEFAULT_EDITION).sqlColumns.bindingKind : 'binding';
    out.push(
      finding(
        'binding.edition-column',
        `the bindings table has no column ${col} (the ${t.edition ?? DEFAULT_EDITION} edition's; ${other} is the other's)`,
        { table },
        `write the binding into the ${col} column the run's Core Schema names (sqlite.md, postgres.md)`,
      ),
    );
    return undefined;
  }
}
