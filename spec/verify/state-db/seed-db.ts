import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteFile } from '../../../src/sqlite/index.ts';

/** sqlite.md "Core Schema", with the one statement SQLite refuses (an expression in PRIMARY KEY) as a unique index. */
const SEED_DDL = `
CREATE TABLE run (id TEXT PRIMARY KEY, program_path TEXT, program_source TEXT, started_at TEXT DEFAULT (datetime('now')),
  updated_at TEXT DEFAULT (datetime('now')), status TEXT DEFAULT 'running', state_mode TEXT DEFAULT 'sqlite');
CREATE TABLE execution (id INTEGER PRIMARY KEY AUTOINCREMENT, statement_index INTEGER, statement_text TEXT, status TEXT,
  started_at TEXT, completed_at TEXT, error_message TEXT, parent_id INTEGER REFERENCES execution(id), metadata TEXT);
CREATE TABLE bindings (name TEXT, execution_id INTEGER, kind TEXT, value TEXT, source_statement TEXT,
  created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')), attachment_path TEXT);
CREATE UNIQUE INDEX bindings_name_scope ON bindings(name, IFNULL(execution_id, -1));
CREATE TABLE agents (name TEXT PRIMARY KEY, scope TEXT, memory TEXT, created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')));
CREATE TABLE agent_segments (id INTEGER PRIMARY KEY AUTOINCREMENT, agent_name TEXT REFERENCES agents(name), segment_number INTEGER,
  timestamp TEXT DEFAULT (datetime('now')), prompt TEXT, summary TEXT, UNIQUE(agent_name, segment_number));
CREATE TABLE imports (alias TEXT PRIMARY KEY, source_url TEXT, fetched_at TEXT, inputs_schema TEXT, outputs_schema TEXT);
`;

/** The seed's own example rows: the run, the parallel block, research/result/full_report, captain and two segments. */
const SEED_ROWS = `
INSERT INTO run (id, program_path, program_source) VALUES ('20260116-143052-a7b3c9', 'feature.prose', 'let research = session: researcher');
INSERT INTO execution (statement_index, statement_text, status, started_at) VALUES (3, 'session "Research AI safety"', 'executing', datetime('now'));
INSERT INTO execution (statement_index, statement_text, status, metadata) VALUES (5, 'parallel:', 'executing', '{"parallel_id": "p1", "strategy": "all", "branches": ["a", "b", "c"]}');
INSERT INTO execution (statement_index, statement_text, status, parent_id, metadata) VALUES (6, 'a = session "Task A"', 'completed', 2, '{"parallel_id": "p1", "branch": "a"}');
INSERT INTO bindings (name, execution_id, kind, value, source_statement) VALUES ('research', NULL, 'let', 'AI safety research covers alignment, robustness...', 'let research = session: researcher');
INSERT INTO bindings (name, execution_id, kind, value, source_statement) VALUES ('result', 43, 'let', 'Processed chunk into 3 sub-parts...', 'let result = session "Process chunk"');
INSERT INTO bindings (name, kind, value, attachment_path, source_statement) VALUES ('full_report', 'let', 'Full analysis report (847KB) - see attachment', 'attachments/full_report.md', 'let full_report = session "Generate comprehensive report"');
INSERT INTO agents (name, scope, memory) VALUES ('captain', 'execution', '# Agent Memory: captain');
INSERT INTO agent_segments (agent_name, segment_number, prompt, summary) VALUES ('captain', 1, 'Review the research findings', '- Reviewed: docs');
INSERT INTO agent_segments (agent_name, segment_number, prompt, summary) VALUES ('captain', 2, 'Review the synthesis', '- Found: gaps');
INSERT INTO imports (alias, source_url, fetched_at) VALUES ('research', 'https://p.prose.md/@alice/research', datetime('now'));
CREATE TABLE x_metrics (execution_id INTEGER REFERENCES execution(id), metric_name TEXT, metric_value REAL);
ALTER TABLE bindings ADD COLUMN token_count INTEGER;
`;

export interface SeedDb {
  runDir: string;
  db: string;
  /** Runs SQL on the database through the WASM engine and writes it back. */
  exec(sql: string): Promise<void>;
  cleanup(): void;
}

/** A state.db built from sqlite.md's own examples, in `.prose/runs/20260116-143052-a7b3c9/` of a fresh temp dir. */
export async function seedDb(): Promise<SeedDb> {
  const root = mkdtempSync(join(tmpdir(), 'prose-verify-db-'));
  const runDir = join(root, '.prose', 'runs', '20260116-143052-a7b3c9');
  mkdirSync(join(runDir, 'attachments'), { recursive: true });
  writeFileSync(join(runDir, 'program.prose'), 'let research = session: researcher\n');
  writeFileSync(join(runDir, 'attachments', 'full_report.md'), 'The full report.\n');
  const db = join(runDir, 'state.db');
  const exec = execOn(db);
  await exec(SEED_DDL + SEED_ROWS);
  return { runDir, db, exec, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs SQL on the database at `db` and writes it back (how a spec tampers with a state.db). */
export function execOn(db: string): (sql: string) => Promise<void> {
  return async (sql) => {
    const f = await SqliteFile.open(db);
    try {
      await f.write((d) => {
        d.exec(sql);
      });
    } finally {
      f.close();
    }
  };
}
