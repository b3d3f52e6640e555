import type { Actor } from './actor.ts';
import type { Capability } from './capabilities.ts';
import type { Decisions } from './decisions.ts';
import type { Edition } from './editions.ts';
import type { OpArgs, OpName, OpResults } from './ops.ts';
/**
 * The contract every backend implements: built-in ones, a module plugin, and (through the client) an exec plugin.
 * `call` answers a result or throws a ProseError whose code is the contract answer (E_NOT_FOUND, E_ROLE, ...).
 */
export interface Backend {
    call<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): Promise<OpResults[K]>;
    /** A read-only view of the storage for layout expectations; absent when the storage is not inspectable. */
    storage?(): StorageView;
    /** Releases handles. Reopening a factory on the same storage must see what was committed (`durable`). */
    close(): Promise<void>;
}
/** Where a backend keeps its state for one case: a fresh directory tree the runner owns and removes. */
export interface BackendEnv {
    /** The project directory; the seed's `.prose/` lives under it. */
    projectDir: string;
    /** Stands in for `~`, so user-scope state never touches the real home directory. */
    homeDir: string;
    decisions: Decisions;
    /** Identifies the storage across restarts (for engines that are not files, such as pg-mem). */
    storageKey: string;
    /** The edition whose layout and rules the backend keeps for this storage; absent: v0 (core/editions.ts). */
    edition?: Edition;
}
/** What a backend keeps its state in: one vocabulary for factories, storage views, plugins and cases. */
export declare const STORAGE_KINDS: readonly ["directory", "sqlite", "postgres", "transcript", "other"];
export type StorageKind = (typeof STORAGE_KINDS)[number];
/** The storage kinds a subagent writes to itself (session.md has instructions for them); cases may expect by them. */
export declare const SUBAGENT_STORAGE_KINDS: readonly ["directory", "sqlite", "postgres"];
export type SubagentStorageKind = (typeof SUBAGENT_STORAGE_KINDS)[number];
export declare function isSubagentStorageKind(kind: StorageKind): kind is SubagentStorageKind;
export interface BackendFactory {
    /** The name used on the command line and in reports (`filesystem`, `sqlite`, `postgres`, `postgres:real`, ...). */
    name: string;
    /** The storage kind, used to match layout expectations. */
    kind: StorageKind;
    capabilities: readonly Capability[];
    /**
     * The edition this factory's runs are judged by (absent: v0). The editions a backend implements are its
     * `edition:*` capabilities; the runner makes one factory per edition judged (core/editions.ts).
     */
    edition?: Edition;
    /** A line for `prose-state backends` and report headers (never a secret). */
    description: string;
    /** The pinned choice a run of this backend used, where the factory has one (printed in reports). */
    settings?: Record<string, string>;
    open(env: BackendEnv): Promise<Backend>;
    /**
     * The backend string that recreates this factory in another process (`filesystem`, `exec:...`), set by the
     * CLI's table of backend kinds (src/cli/backend-kinds.ts). The crash and concurrency areas pass it to their worker processes through the environment.
     */
    spec?: string;
    /**
     * Loads what `open` would load lazily (an engine such as WASM SQLite), touching no storage: a crash worker
     * started ahead of its kill does this while the previous kill is checked.
     */
    prepare?(): Promise<void>;
    /** Removes what `open` created outside `projectDir`/`homeDir` (a database schema, say). */
    dispose?(env: BackendEnv): Promise<void>;
}
export type Row = Record<string, unknown>;
export type StorageView = {
    kind: 'directory';
    projectDir: string;
    homeDir: string;
} | {
    kind: 'sqlite';
    projectDir: string;
    homeDir: string;
    query(dbPath: string, sql: string, params?: unknown[]): Promise<Row[]>;
} | {
    kind: 'postgres';
    query(sql: string, params?: unknown[]): Promise<Row[]>;
    /** Where the files beside the database live (attachments/ of a run directory), for layout checks of them. */
    dirs?: {
        projectDir: string;
    };
    /** Runs a script as a subagent's own psql session would (the session-protocol area); never used by layout checks. */
    subagentScript?(script: string): Promise<void>;
} | {
    kind: 'transcript';
    text(): Promise<string>;
};
