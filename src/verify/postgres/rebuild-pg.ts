import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import { changeCount, planStatements, type RebuildOutcome, type TablePlan } from '../projections/index.ts';
import { checkPgSchema } from './check-pg-schema.ts';
import type { PgSchemaReader } from './pg-reader.ts';

/**
 * `verify --rebuild-projections postgres:...` (decision sql-projections): the plan comes from the check verify runs,
 * and with `write` its statements go through the same reader, which the caller opened inside one read-write
 * transaction and commits only when this returns (a throw leaves it to be rolled back). Only
 * openprose.world_model_published is written.
 */
export async function rebuildPgSchema(r: PgSchemaReader, write: boolean, given?: Edition): Promise<RebuildOutcome> {
  const plans: TablePlan[] = [];
  const { edition } = await checkPgSchema(r, given, { plans });
  if (edition.edition !== 'current')
    throw new ProseError('E_USAGE', 'schema openprose is v0: the v0 texts name no projections to rebuild', {
      location: { field: 'openprose' },
      hint: '--rebuild-projections reads a current-edition schema (bindings.binding)',
    });
  if (write)
    for (const plan of plans)
      for (const s of planStatements(plan, 'openprose.world_model_published', (n) => `$${n}`))
        await r.query(s.sql, s.params);
  return { edition: 'current', plans, written: write ? changeCount(plans) : 0 };
}
