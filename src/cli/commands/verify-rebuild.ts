import { resolve } from 'node:path';
import type { Edition } from '../../core/editions.ts';
import { formatError, ProseError, toProseError } from '../../core/errors.ts';
import { changeCount, formatPlan, NOT_DERIVABLE, type RebuildOutcome } from '../../verify/projections/index.ts';
import { rebuildPgSchema } from '../../verify/postgres/rebuild-pg.ts';
import { stateDbVerifier } from '../../verify/state-db/index.ts';
import { rebuildStateDb } from '../../verify/state-db/rebuild-state-db.ts';
import { EXIT, type CliIo } from '../io.ts';
import { POSTGRES_TARGET, shownTarget, targetUrl } from './verify-postgres.ts';

export interface RebuildArgs {
  path: string;
  format: 'text' | 'json';
  write: boolean;
  edition?: Edition;
}

/**
 * `verify --rebuild-projections TARGET [--write]` (decision sql-projections): prints what a rebuild of the projection
 * tables would write, and writes it in one transaction only with --write. A flag of verify, not a command of its own:
 * the plan is verify's own derivation, and the state it reads is named the way verify names it.
 */
export async function runRebuild(args: RebuildArgs, io: CliIo): Promise<number> {
  const pg = POSTGRES_TARGET.test(args.path);
  const shown = pg ? shownTarget(args.path) : args.path;
  try {
    const outcome = pg ? await rebuildPostgres(args, io) : await rebuildFile(resolve(io.cwd, args.path), args);
    writeOutcome(outcome, shown, args, io);
    return EXIT.ok;
  } catch (err) {
    const e = toProseError(err, 'E_IO');
    io.stderr.write(`prose-state verify: ${formatError(e)}\n`);
    return e.code === 'E_USAGE' ? EXIT.usage : EXIT.harness;
  }
}

async function rebuildFile(abs: string, args: RebuildArgs): Promise<RebuildOutcome> {
  if (args.edition === 'v0') throw v0Refused();
  if (!(await stateDbVerifier.detect(abs)))
    throw new ProseError('E_USAGE', `${args.path} is not a SQLite file`, {
      location: { file: args.path },
      hint: '--rebuild-projections takes a current-edition state.db, postgres:URL or postgres:env',
    });
  return rebuildStateDb(abs, args.write);
}

async function rebuildPostgres(args: RebuildArgs, io: CliIo): Promise<RebuildOutcome> {
  if (args.edition === 'v0') throw v0Refused();
  const pg = await import('../../backends/postgres/index.ts');
  const url = targetUrl(pg, args.path, io, args.edition);
  if (!args.write) {
    const reader = await pg.openReadOnlyReader(url);
    try {
      return await rebuildPgSchema(reader, false, args.edition);
    } finally {
      await reader.close();
    }
  }
  const session = await pg.openRebuildSession(url);
  try {
    const outcome = await rebuildPgSchema(session, true, args.edition);
    await session.commit();
    return outcome;
  } finally {
    await session.close();
  }
}

const v0Refused = () =>
  new ProseError('E_USAGE', '--edition v0: the v0 texts name no projections to rebuild', {
    hint: '--rebuild-projections reads the current edition only (decision sql-projections)',
  });

function writeOutcome(o: RebuildOutcome, shown: string, args: RebuildArgs, io: CliIo): void {
  if (args.format === 'json') {
    const body = { kind: 'rebuild-projections', path: shown, edition: o.edition, write: args.write };
    io.stdout.write(
      `${JSON.stringify({ ...body, plans: o.plans, notDerivable: NOT_DERIVABLE, written: o.written })}\n`,
    );
    return;
  }
  io.stdout.write(`rebuild: projections of ${shown} (${o.edition} edition)\n${formatPlan(o.plans)}`);
  const n = changeCount(o.plans);
  io.stdout.write(
    args.write
      ? `rebuild: ${o.written} rows written in one transaction\n`
      : `rebuild: ${n} rows to write; nothing written (add --write to apply the plan in one transaction)\n`,
  );
}
