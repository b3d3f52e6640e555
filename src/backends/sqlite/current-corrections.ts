import { SEED_CORRECTIONS, type SeedCorrection } from './seed-corrections.ts';

/**
 * Statements of the current sqlite.md "Core Schema" that do not run as written, with what this backend runs instead
 * (src/sqlite/schema-current.ts). docs/sqlite.md lists them; spec/backends/sqlite/current-ddl.spec.ts runs both through
 * node:sqlite, WASM SQLite and the real sqlite3 CLI. Every other statement of the current Core Schema runs verbatim.
 */
export const CURRENT_CORRECTIONS = {
  bindingsDdl: {
    where: 'Core Schema, bindings (decision sqlite-current-bindings-key)',
    problem:
      'SQLite refuses expressions in a PRIMARY KEY ("expressions prohibited in PRIMARY KEY and UNIQUE constraints"), so the table is never created.',
    // The current text's bindings DDL is v0's with the kind column renamed binding; the refused line is the same.
    seed: SEED_CORRECTIONS.bindingsDdl.seed.replace('    kind TEXT,', '    binding TEXT,'),
    corrected: SEED_CORRECTIONS.bindingsDdl.corrected.replace(' kind TEXT,', ' binding TEXT,'),
  },
} satisfies Record<string, SeedCorrection>;
