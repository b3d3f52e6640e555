import type { Node, YAMLMap } from 'yaml';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { PLANT_STORAGES, plantPathProblem, runPlant, type PlantSpec } from '../plant.ts';
import { withTimeout } from '../with-timeout.ts';
import type { StepKind, StepSite } from './step-kind.ts';

/**
 * State written as a VM (or a subagent) following the seeds writes it, planted into the storage by the runner: the
 * backend is closed, the files are written and the SQL is run, then a new instance opens the storage. Paths are
 * relative to the project directory (`~/` for the home directory) and may not leave it. A case that plants runs only
 * on backends of the storage kinds it plants for (plant.ts).
 */
export interface PlantStep extends PlantSpec {
  kind: 'plant';
  pos: SourcePos;
}

const PLANT_KEYS = new Set(['plant', 'files', 'db', 'sql']);

export const plantStep: StepKind<PlantStep> = {
  kind: 'plant',
  key: 'plant',
  load: loadPlant,
  async run(step, { ctx, env, vars, state }) {
    // A plant for another storage kind is that kind's version of the same seed state.
    if (step.storage !== ctx.factory.kind) return;
    const plant = runPlant(step, {
      env,
      vars,
      backend: state.backend!,
      close: async () => {
        await state.backend?.close();
        state.backend = undefined;
      },
      reopen: async () => {
        state.backend = await ctx.factory.open(env);
      },
    });
    await withTimeout(plant, ctx.stepTimeoutMs, `plant ${step.storage}`);
  },
  explain(step) {
    const what = [
      step.files ? `files ${Object.keys(step.files).join(', ')}` : '',
      step.sql !== undefined ? `SQL${step.db ? ` on ${step.db}` : ''}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return `plant ${step.storage}: close the backend, write ${what} as a seed-following VM would, open it again (no message)`;
  },
};

function loadPlant(node: YAMLMap, { p, field, pos }: StepSite): PlantStep {
  checkKeys(p, node, PLANT_KEYS, field);
  const js = toJs(p, node) as Record<string, unknown>;
  // The line of the field at fault (its key's value), the step's line when the field is missing.
  const lineOf = (f: string) => {
    const n = node.get(f.split('.')[0]!, true) as Node | undefined;
    return n?.range ? p.lc.linePos(n.range[0]).line : pos.line;
  };
  const err = (msg: string, f: string) => caseError(p.file, lineOf(f), msg, `${field}.${f}`);
  if (!(PLANT_STORAGES as readonly unknown[]).includes(js.plant))
    throw err(`plant must be one of ${PLANT_STORAGES.join(', ')}`, 'plant');
  const storage = js.plant as PlantStep['storage'];
  const step: PlantStep = { kind: 'plant', pos, storage };
  if (js.files !== undefined) step.files = plantFiles(js.files, err);
  if (js.sql !== undefined) {
    if (storage === 'directory') throw err('directory storage has no SQL; plant files', 'sql');
    if (typeof js.sql !== 'string' || js.sql.trim() === '') throw err('"sql" is a non-empty string', 'sql');
    step.sql = js.sql;
  }
  if (js.db !== undefined) {
    if (storage !== 'sqlite') throw err('"db" names a SQLite file and goes with plant: sqlite', 'db');
    const problem = typeof js.db === 'string' ? plantPathProblem(js.db) : '"db" is a path';
    if (problem) throw err(problem, 'db');
    step.db = js.db as string;
  }
  if (storage === 'sqlite' && (step.sql === undefined) !== (step.db === undefined))
    throw err('plant: sqlite runs "sql" on "db": give both or neither', step.db ? 'sql' : 'db');
  if (!step.files && !step.sql) throw err('a plant step plants "files", "sql", or both', 'plant');
  return step;
}

function plantFiles(files: unknown, err: (msg: string, f: string) => Error): Record<string, string> {
  if (!files || typeof files !== 'object' || Array.isArray(files) || Object.keys(files).length === 0)
    throw err('"files" is a non-empty mapping of path to content', 'files');
  for (const [path, content] of Object.entries(files)) {
    const problem = plantPathProblem(path);
    if (problem) throw err(problem, `files.${path}`);
    if (typeof content !== 'string')
      throw err('file content is a string (a YAML block scalar keeps the seed text verbatim)', `files.${path}`);
  }
  return files as Record<string, string>;
}
