import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv, StorageKind } from '../../core/backend.ts';
import { editionLayout, EDITION_NAMES, type Edition } from '../../core/editions.ts';
import { call, expect, type Probe, type ProbeOutcome } from './probe-table.ts';

/**
 * The file a run directory of each edition holds and the other does not (docs/editions.md "Telling a tree's
 * edition"): v0 filesystem.md "Directory Structure" `state.md`, current filesystem.md "`vm.log.md`"; SQLite keeps
 * `state.db` in the run directory in both (v0 sqlite.md "Database Location", sqlite.md "Database Location"), so
 * where the run directory is tells the edition there.
 */
const MARKERS: Record<'directory' | 'sqlite', Record<Edition, string>> = {
  directory: { v0: 'state.md', current: 'vm.log.md' },
  sqlite: { v0: 'state.db', current: 'state.db' },
};

/** Why a storage kind's edition claims are not probed (shown beside the verdict, never a failure). */
const UNPROBED_KINDS: Record<Exclude<StorageKind, 'directory' | 'sqlite'>, string> = {
  postgres:
    'a PostgreSQL schema tells its edition by its columns (bindings.kind v0, bindings.binding current); ' +
    'no probe reads them yet',
  transcript: 'a transcript has no tree to look for the edition in; its markers are the in-context cases',
  other: 'the storage is neither a directory nor SQLite files, so there is no run directory to look at',
};

/**
 * The probe of a declared `edition:E`: the backend opened with `env.edition` E on fresh storage creates a run, and
 * the run directory E lays out holds E's marker file. Only a declared claim is probed: a backend that declares no
 * edition is judged as v0 and may ignore `env.edition`, so an undeclared edition has no refusal to check.
 */
export function editionProbe(edition: Edition, kind: StorageKind): Probe | { unprobed: string } {
  if (kind !== 'directory' && kind !== 'sqlite') return { unprobed: UNPROBED_KINDS[kind] };
  const marker = MARKERS[kind][edition];
  return {
    bothWays: false,
    run: async (ctx) => {
      const env = freshEnv(ctx.env, edition);
      const b = await ctx.openOn(env);
      try {
        const { runId } = await call(b, 'createRun', { program: 'probe' });
        const view = b.storage?.();
        const projectDir = view && 'projectDir' in view ? view.projectDir : env.projectDir;
        const file = join(projectDir, editionLayout(edition).runsDir, runId, marker);
        expect(existsSync(file), `opened in edition ${edition}, createRun wrote no ${file}`);
        return 'works' as ProbeOutcome;
      } finally {
        await b.close().catch(() => {});
      }
    },
  };
}

/** The edition a capability claims, for `edition:*` capabilities. */
export function editionOfCapability(capability: string): Edition | undefined {
  return EDITION_NAMES.find((e) => capability === `edition:${e}`);
}

/** Storage of its own for each edition, beside the probes' (removed with it): a tree is of one edition. */
function freshEnv(env: BackendEnv, edition: Edition): BackendEnv {
  const fresh = {
    ...env,
    projectDir: `${env.projectDir}-edition-${edition}`,
    homeDir: `${env.homeDir}-edition-${edition}`,
    storageKey: `${env.storageKey}-edition-${edition}`,
    edition,
  };
  mkdirSync(fresh.projectDir, { recursive: true });
  mkdirSync(fresh.homeDir, { recursive: true });
  return fresh;
}
