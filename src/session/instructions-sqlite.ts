import { BUSY_TIMEOUT_MS } from '../sqlite/index.ts';
import {
  agentDb,
  attachmentRel,
  runDb,
  type InstructionAgent,
  type InstructionBinding,
  type InstructionRequest,
} from './instruction-paths.ts';
import {
  BEGIN_COMMAND,
  BEGIN_FILE,
  END_COMMAND,
  END_FILE,
  lines,
  MEMORY_TEMPLATE,
  oneLine,
  PLACEHOLDER,
  SQLITE_VALUE_RULE,
  SUMMARY_TEMPLATE,
} from './instruction-text.ts';
import { bindingKindColumn } from './edition-paths.ts';
import { shDq, shWord, sqlLit } from './shell-quote.ts';

/** The sqlite backend's instructions: sqlite3 commands with the VM's values bound as SQL literals (sqlite.md). */

function sqliteCommand(r: InstructionRequest, db: string, sql: string): string {
  return `${r.sqlite3} -cmd ".timeout ${r.timeoutMs ?? BUSY_TIMEOUT_MS}" ${shWord(db)} "${shDq(sql)}"`;
}

export function sqliteBinding(r: InstructionRequest, b: InstructionBinding): string {
  const sql = oneLine`INSERT OR REPLACE INTO bindings
    (name, execution_id, ${bindingKindColumn(r.target)}, value, source_statement, updated_at)
    VALUES (${sqlLit(b.name)}, ${b.executionId ?? 'NULL'}, ${sqlLit(b.kind)}, '${PLACEHOLDER.sqlValue}',
    ${sqlLit(b.source)}, datetime('now'))`;
  return lines(
    'Your output database is:',
    `  ${runDb(r)}`,
    '',
    oneLine`When complete, write your output by running this command from the project directory
      (${r.target.projectDir}); ${SQLITE_VALUE_RULE(PLACEHOLDER.sqlValue)}. The .timeout makes it wait for other
      subagents writing at the same time instead of failing with "database is locked":`,
    BEGIN_COMMAND,
    sqliteCommand(r, runDb(r), sql),
    END_COMMAND,
  );
}

export function sqliteLargeBinding(r: InstructionRequest, b: InstructionBinding): string {
  // sqlite.md "Large Outputs": the path in attachment_path, the value a summary (decision sqlite-attachments).
  const a = attachmentRel(b);
  const sql = oneLine`INSERT OR REPLACE INTO bindings
    (name, execution_id, ${bindingKindColumn(r.target)}, value, attachment_path, source_statement, updated_at)
    VALUES (${sqlLit(b.name)}, ${b.executionId ?? 'NULL'}, ${sqlLit(b.kind)},
    'Attached value (${PLACEHOLDER.bytes} bytes) - see ${a}', ${sqlLit(a)}, ${sqlLit(b.source)}, datetime('now'))`;
  return lines(
    oneLine`Then record it by running this command from the project directory (${r.target.projectDir}), with
      ${PLACEHOLDER.bytes} replaced by the size of your output in UTF-8 bytes (the row holds the path and a summary,
      not the output):`,
    BEGIN_COMMAND,
    sqliteCommand(r, runDb(r), sql),
    END_COMMAND,
  );
}

export function sqliteAgent(r: InstructionRequest, a: InstructionAgent): string {
  const db = agentDb(r, a.scope);
  const mem = oneLine`INSERT INTO agents (name, scope, memory, updated_at)
    VALUES (${sqlLit(a.name)}, ${sqlLit(a.scope)}, '${PLACEHOLDER.memory}', datetime('now'))
    ON CONFLICT (name) DO UPDATE SET memory = excluded.memory, updated_at = excluded.updated_at`;
  const seg = oneLine`INSERT INTO agent_segments (agent_name, segment_number, timestamp, prompt, summary)
    VALUES (${sqlLit(a.name)}, ${a.segment}, '${PLACEHOLDER.timestamp}', ${sqlLit(a.prompt)}, '${PLACEHOLDER.summary}')`;
  const read = `SELECT memory FROM agents WHERE name = ${shDq(sqlLit(a.name))}`;
  return lines(
    'Your memory is in the database:',
    `  ${db}`,
    '',
    'Read your current state:',
    `  ${r.sqlite3} -json ${shWord(db)} "${read}"`,
    '',
    `Memory structure (${PLACEHOLDER.memory}):`,
    BEGIN_FILE,
    `${MEMORY_TEMPLATE(a.name)}${END_FILE}`,
    `Segment summary structure (${PLACEHOLDER.summary}):`,
    BEGIN_FILE,
    `${SUMMARY_TEMPLATE}${END_FILE}`,
    '',
    oneLine`Update your memory and record segment ${a.segment} by running these commands;
      ${SQLITE_VALUE_RULE(`${PLACEHOLDER.memory} and ${PLACEHOLDER.summary}`)}, and ${PLACEHOLDER.timestamp} is the
      current UTC time (ISO 8601, e.g. 2026-01-15T14:32:15Z):`,
    BEGIN_COMMAND,
    sqliteCommand(r, db, mem),
    sqliteCommand(r, db, seg),
    END_COMMAND,
  );
}
