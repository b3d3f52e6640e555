import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { EditionVerdict } from '../edition/edition-verdict.ts';
import type { Finding } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { checkPgLedger, type PgLedgerExtra } from './check-pg-ledger.ts';
import { PG_CORE_COLUMNS } from './pg-columns.ts';
import type { PgSchemaReader } from './pg-reader.ts';
import { PG_RULES } from './rules.ts';

export interface PgSchemaResult {
  findings: Finding[];
  edition: EditionVerdict;
}

/**
 * Checks schema openprose as `verify state.db` checks a state.db (decision verify-postgres): the core tables and the
 * columns the edition's postgres.md names, then the receipt ledger and world-model tables (check-pg-ledger.ts). The
 * edition is `given`, or read from x_prose_meta's edition row (our backend's marker), or told by bindings' column
 * (kind: v0, binding: current). It only reads: the reader is read-only (pg-reader.ts). `root`, the openprose root
 * the database belongs to (where `postgres:env` found its URL), is where offloaded versions are read from.
 */
export async function checkPgSchema(
  r: PgSchemaReader,
  given?: Edition,
  extra: PgLedgerExtra = {},
): Promise<PgSchemaResult> {
  const out: Finding[] = [];
  const sink = new FindingSink(PG_RULES, out);
  const edition = given
    ? { edition: given, source: 'given' as const, evidence: `--edition ${given}` }
    : await detect(r);
  const want = PG_CORE_COLUMNS[edition.edition];
  for (const [table, need] of Object.entries(want)) {
    const have = await r.columns(table, need);
    // v0 makes its world-model tables on first use; the current DDL makes every table up front.
    if (!have) {
      sink.add('db.table-missing', `schema openprose has no table ${table}`, { table: `openprose.${table}` });
      continue;
    }
    const missing = need.filter((c) => !have.has(c));
    if (missing.length)
      sink.add(
        'db.column-missing',
        `table openprose.${table} has no column ${missing.join(', ')} (the ${edition.edition} edition's name)`,
        { table: `openprose.${table}` },
      );
  }
  await checkPgLedger(r, edition.edition, sink, extra);
  return { findings: out, edition };
}

async function detect(r: PgSchemaReader): Promise<EditionVerdict & { edition: Edition }> {
  if (await r.columns('x_prose_meta', ['key', 'value'])) {
    const [row] = await r.query(`SELECT value FROM openprose.x_prose_meta WHERE key = 'edition'`);
    if (row?.value === 'current')
      return { edition: 'current', source: 'detected', evidence: 'x_prose_meta edition current' };
  }
  const bindings = await r.columns('bindings', ['kind', 'binding']);
  if (bindings?.has('binding') && !bindings.has('kind'))
    return { edition: 'current', source: 'detected', evidence: 'bindings.binding' };
  if (bindings?.has('kind') && !bindings.has('binding'))
    return { edition: 'v0', source: 'detected', evidence: 'bindings.kind' };
  throw new ProseError(
    'E_UNSUPPORTED',
    bindings
      ? 'cannot tell the edition of schema openprose: bindings has both kind and binding, or neither'
      : 'schema openprose has no bindings table to tell its edition by',
    { location: { field: 'openprose.bindings' }, hint: 'prose-state verify --edition v0|current postgres:...' },
  );
}
