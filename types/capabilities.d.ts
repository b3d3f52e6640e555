/**
 * What a backend may declare. A case lists what it requires; a backend that does not declare one has the case
 * skipped with that reason, and a call needing an undeclared capability must answer E_UNSUPPORTED.
 */
export declare const CAPABILITIES: {
    readonly attachments: "large values are stored as attachments and read back whole (sqlite.md \"Large Outputs\"; in directories our extension, decision fs-attachment-header)";
    readonly 'project-scope': "persistent agents with project scope survive across runs";
    readonly 'user-scope': "persistent agents with user scope live in the (injectable) home directory";
    readonly 'custom-scope': "persistent agents at a custom path";
    readonly imports: "nested runs for imported programs";
    readonly durable: "what was committed survives closing and reopening the backend (restart)";
    readonly 'concurrent-writers': "several processes may write bindings and segments of one run at once";
    readonly 'multi-process': "another process can open the same storage (the crash and concurrency areas run their writers in child processes)";
    readonly 'subagent-writes': "subagents write bindings, memory and segments into the storage themselves, as session.md instructs, and the backend reads them back";
    readonly 'world-model': "canonical world-model versions (OPWM1, sha256 addresses) per node";
    readonly receipts: "the append-only receipt ledger, chained per node";
    readonly 'world-model-only': "keeps only runs, world-models and receipts: bindings, memory, segments, events and the envelope answer E_UNSUPPORTED";
    readonly 'native-sqlite3-beside': "real sqlite3 processes (the seed's CLI) may read and write the same state.db while the backend does: each waits on the other's locks";
    readonly 'layout:directory': "the storage is the seed directory layout and may be checked file by file";
    readonly 'layout:sqlite': "the storage is SQLite files in the seed schema and may be queried";
    readonly 'layout:postgres': "the storage is the openprose PostgreSQL schema and may be queried";
    readonly 'layout:transcript': "the storage is a narration transcript and may be read as text";
    readonly 'edition:v0': "implements the v0 edition (January 2026 texts): .prose/runs/{id}/ with state.md; a backend declaring no edition is judged as v0";
    readonly 'edition:current': "implements the current edition (seed 004): <openprose-root>/runs/{id}/ with vm.log.md, durable state/ (docs/editions.md)";
};
export type Capability = keyof typeof CAPABILITIES;
export declare function isCapability(value: unknown): value is Capability;
