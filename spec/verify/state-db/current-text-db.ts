import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { AGENTS_DDL, CURRENT_RUN_DDL } from '../../../src/sqlite/index.ts';

export const RUN = '20260116-143052-a7b3c9';

/** Rows as the current sqlite.md's own statements write them (run registration is the VM's, the rest verbatim). */
export const TEXT_ROWS = `
INSERT INTO run (id, root_path, root_source) VALUES ('${RUN}', 'research/deep-research.prose.md', 'let research = session: researcher');
INSERT INTO execution (statement_index, statement_text, status, started_at) VALUES (3, 'session "Research AI safety"', 'executing', datetime('now'));
INSERT INTO execution (statement_index, statement_text, status, metadata) VALUES (5, 'parallel:', 'started', '{"parallel_id": "p1", "branches": ["a", "b", "c"]}');
INSERT OR REPLACE INTO bindings (name, execution_id, binding, value, source_statement, updated_at)
  VALUES ('research', NULL, 'let', 'AI safety research covers alignment, robustness...', 'let research = session: researcher', datetime('now'));
INSERT OR REPLACE INTO bindings (name, execution_id, binding, value, source_statement, updated_at)
  VALUES ('result', 43, 'let', 'Processed chunk into 3 sub-parts...', 'let result = session "Process chunk"', datetime('now'));
INSERT INTO bindings (name, binding, value, attachment_path, source_statement)
  VALUES ('full_report', 'let', 'Full analysis report (847KB) - see attachment', 'attachments/full_report.md', 'let full_report = session "Generate report"');
INSERT INTO agents (name, scope) VALUES ('captain', 'execution');
UPDATE agents SET memory = '...', updated_at = datetime('now') WHERE name = 'captain';
INSERT INTO agent_segments (agent_name, segment_number, prompt, summary) VALUES ('captain', 1, '...', '...');
INSERT INTO imports (alias, source_ref, resolved_at) VALUES ('alice--research', 'https://p.prose.md/@alice/research', datetime('now'));
`;

/** A current-edition run directory whose state.db the real sqlite3 made from the current DDL (corrected) and rows. */
export function textDb(rows = TEXT_ROWS): { db: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'prose-verify-current-db-'));
  const runDir = join(root, 'runs', RUN);
  mkdirSync(join(runDir, 'attachments'), { recursive: true });
  writeFileSync(join(runDir, 'root.prose.md'), 'let research = session: researcher\n');
  writeFileSync(join(runDir, 'attachments', 'full_report.md'), 'The full report.\n');
  const db = join(runDir, 'state.db');
  const r = spawnSync('/usr/bin/sqlite3', ['-bail', db, CURRENT_RUN_DDL + AGENTS_DDL + rows], { encoding: 'utf8' });
  assert.is(r.stderr, '');
  return { db, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The v0 seed database's columns renamed to the current text's (sqlite.md "Core Schema"): a current-edition file. */
export const TO_CURRENT_COLUMNS = `
ALTER TABLE run RENAME COLUMN program_path TO root_path; ALTER TABLE run RENAME COLUMN program_source TO root_source;
ALTER TABLE bindings RENAME COLUMN kind TO binding; ALTER TABLE imports RENAME COLUMN source_url TO source_ref;
ALTER TABLE imports RENAME COLUMN fetched_at TO resolved_at; ALTER TABLE imports RENAME COLUMN inputs_schema TO requires_schema;
ALTER TABLE imports RENAME COLUMN outputs_schema TO ensures_schema;
`;
