/**
 * What a backend may declare. A case lists what it requires; a backend that does not declare one has the case
 * skipped with that reason, and a call needing an undeclared capability must answer E_UNSUPPORTED.
 */
export const CAPABILITIES = {
  attachments:
    'large values are stored as attachments and read back whole (sqlite.md "Large Outputs"; in directories our extension, decision fs-attachment-header)',
  'project-scope': 'persistent agents with project scope survive across runs',
  'user-scope': 'persistent agents with user scope live in the (injectable) home directory',
  'custom-scope': 'persistent agents at a custom path',
  imports: 'nested runs for imported programs',
  durable: 'what was committed survives closing and reopening the backend (restart)',
  'concurrent-writers': 'several processes may write bindings and segments of one run at once',
  'multi-process':
    'another process can open the same storage (the crash and concurrency areas run their writers in child processes)',
  'subagent-writes':
    'subagents write bindings, memory and segments into the storage themselves, as session.md instructs, and the backend reads them back',
  'world-model': 'canonical world-model versions (OPWM1, sha256 addresses) per node',
  receipts: 'the append-only receipt ledger, chained per node',
  'world-model-only':
    'keeps only runs, world-models and receipts: bindings, memory, segments, events and the envelope answer E_UNSUPPORTED',
  'native-sqlite3-beside':
    "real sqlite3 processes (the seed's CLI) may read and write the same state.db while the backend does: each waits on the other's locks",
  'layout:directory': 'the storage is the seed directory layout and may be checked file by file',
  'layout:sqlite': 'the storage is SQLite files in the seed schema and may be queried',
  'layout:postgres': 'the storage is the openprose PostgreSQL schema and may be queried',
  'layout:transcript': 'the storage is a narration transcript and may be read as text',
  'edition:v0':
    'implements the v0 edition (January 2026 texts): .prose/runs/{id}/ with state.md; a backend declaring no edition is judged as v0',
  'edition:current':
    'implements the current edition (seed 004): <openprose-root>/runs/{id}/ with vm.log.md, durable state/ (docs/editions.md)',
} as const;

export type Capability = keyof typeof CAPABILITIES;

export function isCapability(value: unknown): value is Capability {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CAPABILITIES, value);
}
