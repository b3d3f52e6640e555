import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Backend, BackendEnv } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import { runSeedSql } from '../session/index.ts';
import type { SourcePos } from './source-pos.ts';
import { interpolate, type Vars } from './template.ts';

export const PLANT_STORAGES = ['directory', 'sqlite', 'postgres'] as const;
export type PlantStorage = (typeof PLANT_STORAGES)[number];

/** What a plant step plants (steps/plant.ts reads it from the case); `pos` names the step in errors. */
export interface PlantSpec {
  pos: SourcePos;
  storage: PlantStorage;
  /** path -> content, written byte for byte (UTF-8). */
  files?: Record<string, string>;
  /** sqlite: the database file the SQL runs on, relative to the project directory. */
  db?: string;
  /**
   * SQL run on the storage as the seed's VM or subagent would run it (sqlite: on `db`; postgres: on the storage's own
   * connection).
   */
  sql?: string;
}

/**
 * Why a planted path is refused, or undefined: relative to the project (`~/` to the home directory), with no `.`,
 * `..` or empty segment, and not absolute on any system, so nothing a case plants lands outside the storage root.
 */
export function plantPathProblem(path: string): string | undefined {
  if (typeof path !== 'string' || path === '') return 'a planted path is a non-empty string';
  const rest = path.startsWith('~/') ? path.slice(2) : path;
  if (/^([/\\]|[A-Za-z]:)/.test(rest))
    return `planted path ${JSON.stringify(path)} is absolute; give it relative to the project directory (~/ for the home directory)`;
  if (rest.split(/[/\\]/).some((seg) => seg === '' || seg === '.' || seg === '..')) {
    return `planted path ${JSON.stringify(path)} has an empty, "." or ".." segment; it may not leave the storage root`;
  }
  return undefined;
}

/** The absolute path of a planted file, checked again after templates are filled (`${run}` may hold anything). */
function plantedPath(path: string, env: BackendEnv, pos: SourcePos): string {
  const problem = plantPathProblem(path);
  if (problem) throw new ProseError('E_CASE', problem, { location: pos });
  const home = path.startsWith('~/');
  const root = resolve(home ? env.homeDir : env.projectDir);
  const abs = resolve(root, home ? path.slice(2) : path);
  if (!abs.startsWith(root + sep))
    throw new ProseError('E_CASE', `planted path ${JSON.stringify(path)} is outside the storage`, { location: pos });
  return abs;
}

export interface PlantContext {
  env: BackendEnv;
  vars: Vars;
  /** The open backend: postgres SQL runs on its storage's own connection. */
  backend: Backend;
  close(): Promise<void>;
  reopen(): Promise<void>;
}

/**
 * Plants one step: postgres SQL on the open storage's connection (the schema exists once a backend opened it), then
 * the backend is closed, files are written and SQLite SQL is run, and a new backend instance opens the storage.
 */
export async function runPlant(step: PlantSpec, c: PlantContext): Promise<void> {
  const s = interpolate(step, c.vars) as PlantSpec;
  if (s.sql !== undefined && s.storage === 'postgres') {
    const view = c.backend.storage?.();
    if (view?.kind !== 'postgres' || !view.subagentScript)
      throw new ProseError(
        'E_CASE',
        'the backend gives no connection SQL could be planted with (StorageView.subagentScript)',
        { location: step.pos },
      );
    await view.subagentScript(s.sql);
  }
  await c.close();
  for (const [path, content] of Object.entries(s.files ?? {})) {
    // Keys are not templates to interpolate(): the path is filled here (`.prose/runs/${run}/...`).
    const abs = plantedPath(String(interpolate(path, c.vars)), c.env, step.pos);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  if (s.sql !== undefined && s.storage === 'sqlite') await runSeedSql(plantedPath(s.db!, c.env, step.pos), s.sql);
  await c.reopen();
}
