import type { Capability } from './capabilities.ts';
import { ProseError } from './errors.ts';

/**
 * The two texts of the OpenProse state spec a backend can be written against (docs/editions.md). An edition is judged
 * by its own text: `v0` by the January 2026 seeds (`.prose/runs/{id}/`, `state.md`), `current` by seed 004 and the
 * backend specs it points to (`<openprose-root>/runs/{id}/`, `vm.log.md`, durable `state/`).
 */
export const EDITIONS = {
  v0: 'the January 2026 texts (seeds 000-003): .prose/runs/{id}/ with program.prose, state.md, bindings/',
  current:
    'the current texts (seed 004 and the backend specs it points to): <openprose-root>/runs/{id}/ with ' +
    'root.prose.md, vm.log.md, world-model/, receipts/; durable state/',
} as const;

export type Edition = keyof typeof EDITIONS;

export const EDITION_NAMES = Object.keys(EDITIONS) as Edition[];

/** A backend that declares no edition was written before editions existed: it is judged as v0. */
export const DEFAULT_EDITION: Edition = 'v0';

export function isEdition(value: unknown): value is Edition {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EDITIONS, value);
}

export function parseEdition(value: string, field: string): Edition {
  if (isEdition(value)) return value;
  throw new ProseError('E_USAGE', `unknown edition "${value}"`, {
    location: { field },
    hint: `editions: ${EDITION_NAMES.join(', ')}`,
  });
}

/**
 * Where an edition puts a project's state, as paths relative to the project directory (the `<openprose-root>` of a
 * native repository, SKILL.md "OpenProse Root") or to the home directory. Cases name files through these (template
 * variables `${runDir}`, `${projectAgents}`, ...), so one case checks both trees.
 */
export interface EditionLayout {
  /** The runs directory under the project: `.prose/runs` or `runs`. */
  runsDir: string;
  /** Project-scoped agents: `.prose/agents` or `state/agents`. */
  projectAgentsDir: string;
  /** User-scoped agents, under the home directory: `.prose/agents` or `.agents/prose/state/agents`. */
  userAgentsDir: string;
  /** The configuration file under the project: `.prose/.env` or `.env`. */
  envFile: string;
  /** The run's copy of the invoked program: `program.prose` or `root.prose.md`. */
  programFile: string;
  /** The run's execution log: `state.md` (rewritten by the VM) or `vm.log.md` (appended one line at a time). */
  executionLog: string;
  /** How the execution log's first line starts: `# Execution State` or `# run:`. */
  executionLogHeading: string;
  /** Durable per-node world-model under the project, or undefined where the edition keeps versions per run. */
  durableWorldModelDir: string | undefined;
  /** The SQL columns (sqlite.md and postgres.md "Core Schema") whose names the editions spell differently. */
  sqlColumns: SqlColumns;
}

/**
 * What the current texts rename of v0's core SQL columns (sqlite.md and postgres.md "Core Schema"); every other
 * column keeps its name. The one table of the renames: the case variables below, the sqlite store's required columns
 * and verify's core columns are all derived from it.
 */
export const CURRENT_SQL_RENAMES = {
  program_path: 'root_path',
  program_source: 'root_source',
  kind: 'binding',
  source_url: 'source_ref',
  fetched_at: 'resolved_at',
  inputs_schema: 'requires_schema',
  outputs_schema: 'ensures_schema',
} as const;

type RenamedColumn<C extends string> = C extends keyof typeof CURRENT_SQL_RENAMES ? (typeof CURRENT_SQL_RENAMES)[C] : C;

/** A v0 column's name in the current edition. */
export function currentSqlName<C extends string>(column: C): RenamedColumn<C> {
  const renames: Readonly<Record<string, string>> = CURRENT_SQL_RENAMES;
  return (Object.prototype.hasOwnProperty.call(renames, column) ? renames[column] : column) as RenamedColumn<C>;
}

/** v0's columns of each table under their current names. */
export function renamedToCurrent<T extends string>(tables: Record<string, readonly T[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(tables).map(([t, cols]) => [t, cols.map((c) => currentSqlName(c))]));
}

/** v0's names of the SQL columns cases name as `${sql.importSource}`; the current edition's are these renamed. */
const V0_SQL_COLUMNS = {
  /** run: the invoked program's path and text. */
  runPath: 'program_path',
  runSource: 'program_source',
  /** bindings: input, output, let or const. */
  bindingKind: 'kind',
  /** imports: where the imported program came from. */
  importSource: 'source_url',
} as const;

type V0SqlColumns = typeof V0_SQL_COLUMNS;

/** Column names of the SQL layouts that differ between the editions, in one edition's spelling. */
export type SqlColumns = { [K in keyof V0SqlColumns]: V0SqlColumns[K] | RenamedColumn<V0SqlColumns[K]> };

/** v0's SQL column variables renamed, key by key. */
function currentSqlColumns(): { [K in keyof V0SqlColumns]: RenamedColumn<V0SqlColumns[K]> } {
  const entries = Object.entries(V0_SQL_COLUMNS).map(([key, column]) => [key, currentSqlName(column)]);
  return Object.fromEntries(entries) as { [K in keyof V0SqlColumns]: RenamedColumn<V0SqlColumns[K]> };
}

const LAYOUTS: Record<Edition, EditionLayout> = {
  // v0 filesystem.md "Directory Structure", "Memory Scoping for Persistent Agents", "`.prose/.env`".
  v0: {
    runsDir: '.prose/runs',
    projectAgentsDir: '.prose/agents',
    userAgentsDir: '.prose/agents',
    envFile: '.prose/.env',
    programFile: 'program.prose',
    executionLog: 'state.md',
    executionLogHeading: '# Execution State\n',
    durableWorldModelDir: undefined,
    sqlColumns: V0_SQL_COLUMNS,
  },
  // filesystem.md "Directory Structure", "Memory Scoping"; README "<openprose-root>"; SKILL.md "OpenProse Root".
  current: {
    runsDir: 'runs',
    projectAgentsDir: 'state/agents',
    userAgentsDir: '.agents/prose/state/agents',
    envFile: '.env',
    programFile: 'root.prose.md',
    executionLog: 'vm.log.md',
    executionLogHeading: '# run:',
    durableWorldModelDir: 'state/world-model',
    // sqlite.md and postgres.md "Core Schema" at f12dcda4.
    sqlColumns: currentSqlColumns(),
  },
};

export function editionLayout(edition: Edition): EditionLayout {
  return LAYOUTS[edition];
}

/** The capability a backend declares for each edition it implements (core/capabilities.ts). */
export function editionCapability(edition: Edition): `edition:${Edition}` {
  return `edition:${edition}`;
}

/** The editions a backend implements: its `edition:*` capabilities, or v0 alone when it declares none. */
export function declaredEditions(capabilities: readonly string[]): Edition[] {
  const declared = EDITION_NAMES.filter((e) => capabilities.includes(editionCapability(e)));
  return declared.length ? declared : [DEFAULT_EDITION];
}

/**
 * Capabilities whose text only some editions have: a backend declaring one is judged without it in the others.
 * `custom-scope`: `persist: "path"` is in v0 filesystem.md "Memory Scoping for Persistent Agents" and left the
 * current scoping table (filesystem.md "Memory Scoping": `true`, `project`, `user`).
 */
const ONLY_IN: Partial<Record<Capability, readonly Edition[]>> = { 'custom-scope': ['v0'] };

/** What a backend declaring `capabilities` declares when judged in `edition`. */
export function capabilitiesIn(edition: Edition, capabilities: readonly Capability[]): Capability[] {
  return capabilities.filter((c) => ONLY_IN[c]?.includes(edition) ?? true);
}
