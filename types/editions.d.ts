import type { Capability } from './capabilities.ts';
/**
 * The two texts of the OpenProse state spec a backend can be written against (docs/editions.md). An edition is judged
 * by its own text: `v0` by the January 2026 seeds (`.prose/runs/{id}/`, `state.md`), `current` by seed 004 and the
 * backend specs it points to (`<openprose-root>/runs/{id}/`, `vm.log.md`, durable `state/`).
 */
export declare const EDITIONS: {
    readonly v0: "the January 2026 texts (seeds 000-003): .prose/runs/{id}/ with program.prose, state.md, bindings/";
    readonly current: string;
};
export type Edition = keyof typeof EDITIONS;
export declare const EDITION_NAMES: Edition[];
/** A backend that declares no edition was written before editions existed: it is judged as v0. */
export declare const DEFAULT_EDITION: Edition;
export declare function isEdition(value: unknown): value is Edition;
export declare function parseEdition(value: string, field: string): Edition;
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
export declare const CURRENT_SQL_RENAMES: {
    readonly program_path: "root_path";
    readonly program_source: "root_source";
    readonly kind: "binding";
    readonly source_url: "source_ref";
    readonly fetched_at: "resolved_at";
    readonly inputs_schema: "requires_schema";
    readonly outputs_schema: "ensures_schema";
};
type RenamedColumn<C extends string> = C extends keyof typeof CURRENT_SQL_RENAMES ? (typeof CURRENT_SQL_RENAMES)[C] : C;
/** A v0 column's name in the current edition. */
export declare function currentSqlName<C extends string>(column: C): RenamedColumn<C>;
/** v0's columns of each table under their current names. */
export declare function renamedToCurrent<T extends string>(tables: Record<string, readonly T[]>): Record<string, string[]>;
/** v0's names of the SQL columns cases name as `${sql.importSource}`; the current edition's are these renamed. */
declare const V0_SQL_COLUMNS: {
    /** run: the invoked program's path and text. */
    readonly runPath: "program_path";
    readonly runSource: "program_source";
    /** bindings: input, output, let or const. */
    readonly bindingKind: "kind";
    /** imports: where the imported program came from. */
    readonly importSource: "source_url";
};
type V0SqlColumns = typeof V0_SQL_COLUMNS;
/** Column names of the SQL layouts that differ between the editions, in one edition's spelling. */
export type SqlColumns = {
    [K in keyof V0SqlColumns]: V0SqlColumns[K] | RenamedColumn<V0SqlColumns[K]>;
};
export declare function editionLayout(edition: Edition): EditionLayout;
/** The capability a backend declares for each edition it implements (core/capabilities.ts). */
export declare function editionCapability(edition: Edition): `edition:${Edition}`;
/** The editions a backend implements: its `edition:*` capabilities, or v0 alone when it declares none. */
export declare function declaredEditions(capabilities: readonly string[]): Edition[];
/** What a backend declaring `capabilities` declares when judged in `edition`. */
export declare function capabilitiesIn(edition: Edition, capabilities: readonly Capability[]): Capability[];
export {};
