import { join, relative, sep } from 'node:path';
import { DEFAULT_DECISIONS } from '../core/decisions.ts';
import { formatBindingFile } from '../core/formats/binding-file.ts';
import { formatSegmentFile } from '../core/formats/segment-file.ts';
import type { BindingKind } from '../core/model.ts';
import { segmentFileName } from '../core/numbering.ts';
import { agentDbFile, agentDir as agentDirOf, type FixedAgentScope } from '../core/seed-layout.ts';
import type { RunTarget, SessionBackend } from './run-target.ts';
import { SUMMARY_MAX_CHARS } from './check-subagent-output.ts';
import { shDq, shSq, shWord, sqlLit } from './shell-quote.ts';
import { BUSY_TIMEOUT_MS } from '../sqlite/index.ts';

export interface InstructionRequest {
  backend: SessionBackend;
  target: RunTarget;
  binding?: { name: string; kind: BindingKind; executionId: number | null; source: string };
  agent?: { name: string; scope: 'execution' | 'project' | 'user'; segment: number; prompt: string };
  /** `sqlite3`, or `prose-state sqlite3` on a machine without it. */
  sqlite3: string;
  segmentWidth?: number;
  timeoutMs?: number;
  /** Above this many UTF-8 bytes an output is a large output (sqlite.md "Large Outputs"; decision attachment-threshold). */
  attachmentThresholdBytes?: number;
}

/** Markers around what the subagent copies verbatim, so a literal reader cannot mistake where it starts and ends. */
export const BEGIN_FILE = '----- BEGIN FILE -----';
export const END_FILE = '----- END FILE -----';
export const BEGIN_COMMAND = '----- BEGIN COMMAND -----';
export const END_COMMAND = '----- END COMMAND -----';
export const BEGIN_RETURN = '----- BEGIN RETURN -----';
export const END_RETURN = '----- END RETURN -----';
export const PLACEHOLDER = {
  value: '{Your output here}',
  sqlValue: '<VALUE>',
  memory: '<MEMORY>',
  summary: '<SUMMARY>',
  timestamp: '<TIMESTAMP>',
  returnSummary: '{Summary}',
  bytes: '<BYTES>',
} as const;
/**
 * The two ways to store an output, by its size: a literal reader keeps the branch whose condition its output meets
 * and drops the other, markers and all (follow-instructions.ts `chooseBranch`).
 */
export const BEGIN_SMALL = (t: number) => `----- BEGIN IF YOUR OUTPUT IS AT MOST ${t} BYTES -----`;
export const BEGIN_LARGE = (t: number) => `----- BEGIN IF YOUR OUTPUT IS MORE THAN ${t} BYTES -----`;
export const END_BRANCH = '----- END IF -----';

const MEMORY_TEMPLATE = (agent: string) =>
  `# Agent Memory: ${agent}\n\n## Current Understanding\n\n{what you know about the project/task: update, do not replace}\n\n## Decisions Made\n\n- {YYYY-MM-DD}: {decision} — {rationale}\n\n## Open Concerns\n\n- {concern}\n`;
const SUMMARY_TEMPLATE =
  '- Reviewed: {what you examined, where (file:line)}\n- Found: {specific findings}\n- Decided: {specific decisions}\n- Next: {what should happen next}\n';

/**
 * The exact text a VM hands a subagent for one binding (and, for a persistent agent, its memory and segment) on one
 * backend: where to write, the format or the statement with the VM's values bound, and what to return. Every
 * placeholder is named in the text; nothing else needs editing.
 */
export function buildInstructions(r: InstructionRequest): string {
  const parts: string[] = [];
  const b = r.binding;
  if (b?.executionId != null) parts.push(`Execution scope:\n  execution_id: ${b.executionId}\n`);
  const ret: string[] = [];
  if (b) {
    const t = r.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes;
    const small =
      r.backend === 'directory' ? fsBinding(r, b) : r.backend === 'sqlite' ? sqliteBinding(r, b) : pgBinding(r, b);
    const large =
      r.backend === 'directory'
        ? fsLargeBinding(r, b)
        : r.backend === 'sqlite'
          ? sqliteLargeBinding(r, b)
          : pgLargeBinding(r, b);
    parts.push(
      `Measure your output in UTF-8 bytes and follow the one section below that matches its size (sqlite.md "Large Outputs": a value over ${t} bytes goes to a file under attachments/).\n\n${BEGIN_SMALL(t)}\n${small}${END_BRANCH}\n\n${BEGIN_LARGE(t)}\n${attachmentFile(r, b)}\n${large}${END_BRANCH}\n`,
    );
    ret.push(`Binding written: ${b.name}`, `Location: ${bindingLocation(r, b)}`);
    if (b.executionId !== null) ret.push(`Execution ID: ${b.executionId}`);
    ret.push(`Summary: ${PLACEHOLDER.returnSummary}`);
  }
  if (r.agent) {
    parts.push(
      r.backend === 'directory'
        ? fsAgent(r, r.agent)
        : r.backend === 'sqlite'
          ? sqliteAgent(r, r.agent)
          : pgAgent(r, r.agent),
    );
    if (ret.length) ret.push('');
    ret.push(
      `Memory updated: ${r.agent.name}`,
      `Location: ${memoryLocation(r, r.agent)}`,
      `Segment: ${segmentFileName(r.agent.name, r.agent.segment, r.segmentWidth ?? 3)}`,
    );
  }
  parts.push(
    `When done, return exactly these lines to the VM (not your output: the VM tracks pointers, not values), with ${PLACEHOLDER.returnSummary} replaced by 1-2 sentences (at most ${SUMMARY_MAX_CHARS} characters) on what the binding holds:\n${BEGIN_RETURN}\n${ret.join('\n')}\n${END_RETURN}\n`,
  );
  return parts.join('\n');
}

function rel(r: InstructionRequest, abs: string): string {
  const x = relative(r.target.projectDir, abs);
  if (x.startsWith('..')) {
    const h = relative(r.target.homeDir, abs);
    return h.startsWith('..') ? abs : `~/${h.split(sep).join('/')}`;
  }
  return x.split(sep).join('/');
}

const bindingFile = (b: { name: string; executionId: number | null }) =>
  b.executionId === null ? `${b.name}.md` : `${b.name}__${b.executionId}.md`;
const runDb = (r: InstructionRequest) => rel(r, join(r.target.runDir, 'state.db'));

export function bindingLocation(r: InstructionRequest, b: { name: string; executionId: number | null }): string {
  if (r.backend === 'directory') return rel(r, join(r.target.runDir, 'bindings', bindingFile(b)));
  if (r.backend === 'sqlite')
    return `${runDb(r)} (bindings table, name=${sqlLit(b.name)}, execution_id=${b.executionId ?? 'NULL'})`;
  return `openprose.bindings WHERE name=${sqlLit(b.name)} AND run_id=${sqlLit(r.target.runId)}${b.executionId === null ? '' : ` AND execution_id=${b.executionId}`}`;
}

function agentDir(r: InstructionRequest, a: { name: string; scope: FixedAgentScope }): string {
  return agentDirOf(r.target, a.scope, a.name);
}

function agentDb(r: InstructionRequest, scope: FixedAgentScope): string {
  return rel(r, agentDbFile(r.target, scope));
}

export function memoryLocation(r: InstructionRequest, a: { name: string; scope: FixedAgentScope }): string {
  if (r.backend === 'directory') return rel(r, join(agentDir(r, a), 'memory.md'));
  if (r.backend === 'sqlite') return `${agentDb(r, a.scope)} (agents table, name=${sqlLit(a.name)})`;
  return `openprose.agents WHERE name=${sqlLit(a.name)} AND scope=${sqlLit(a.scope)}${a.scope === 'execution' ? ` AND run_id=${sqlLit(r.target.runId)}` : ''}`;
}

function fsBinding(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  const file = formatBindingFile({
    name: b.name,
    kind: b.kind,
    executionId: b.executionId,
    source: b.source,
    value: PLACEHOLDER.value,
  });
  return `When you complete this task, write your output to:\n  ${bindingLocation(r, b)}\n\nFormat: exactly the text between the markers, with the line ${PLACEHOLDER.value} replaced by your output, verbatim:\n${BEGIN_FILE}\n${file}\n${END_FILE}\n`;
}

const SQLITE_VALUE_RULE = (p: string) =>
  `replace ${p} with your text written as the inside of an SQL string: double every ' (SQL), then put a backslash before every \\, $, \` and " (the SQL sits in shell double quotes)`;

function sqliteCommand(r: InstructionRequest, db: string, sql: string): string {
  return `${r.sqlite3} -cmd ".timeout ${r.timeoutMs ?? BUSY_TIMEOUT_MS}" ${shWord(db)} "${shDq(sql)}"`;
}

function sqliteBinding(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  const sql = `INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, source_statement, updated_at) VALUES (${sqlLit(b.name)}, ${b.executionId ?? 'NULL'}, ${sqlLit(b.kind)}, '${PLACEHOLDER.sqlValue}', ${sqlLit(b.source)}, datetime('now'))`;
  return `Your output database is:\n  ${runDb(r)}\n\nWhen complete, write your output by running this command from the project directory (${r.target.projectDir}); ${SQLITE_VALUE_RULE(PLACEHOLDER.sqlValue)}. The .timeout makes it wait for other subagents writing at the same time instead of failing with "database is locked":\n${BEGIN_COMMAND}\n${sqliteCommand(r, runDb(r), sql)}\n${END_COMMAND}\n`;
}

const PSQL_VALUE_RULE = (ps: string) =>
  `replace ${ps} with your text, writing each ' in it as '\\'' (the values sit in shell single quotes; psql quotes them for SQL)`;

function psql(vars: [string, string][], sql: string): string {
  const v = vars.map(([k, x]) => `-v ${k}=${x.startsWith('<') ? `'${x}'` : shSq(x)}`).join(' ');
  return `psql "$OPENPROSE_POSTGRES_URL" -v ON_ERROR_STOP=1 ${v} <<'PROSE_SQL'\n${sql}\nPROSE_SQL`;
}

function pgBinding(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  const sql = `INSERT INTO openprose.bindings (name, run_id, execution_id, kind, value, source_statement) VALUES (:'name', :'run_id', ${b.executionId ?? 'NULL'}, :'kind', :'value', :'source')\n  ON CONFLICT (name, run_id, COALESCE(execution_id, -1)) DO UPDATE SET kind = EXCLUDED.kind, value = EXCLUDED.value, attachment_path = NULL, source_statement = EXCLUDED.source_statement, updated_at = now();`;
  const cmd = psql(
    [
      ['name', b.name],
      ['run_id', r.target.runId],
      ['kind', b.kind],
      ['source', b.source],
      ['value', PLACEHOLDER.sqlValue],
    ],
    sql,
  );
  return `Your output goes to PostgreSQL (schema openprose); the connection is in the environment variable OPENPROSE_POSTGRES_URL: use it as written, never print it.\n\nWhen complete, run this command; ${PSQL_VALUE_RULE(PLACEHOLDER.sqlValue)}:\n${BEGIN_COMMAND}\n${cmd}\n${END_COMMAND}\n`;
}

function segmentTemplate(r: InstructionRequest, a: NonNullable<InstructionRequest['agent']>): string {
  return formatSegmentFile(
    { number: a.segment, timestamp: PLACEHOLDER.timestamp, prompt: a.prompt, summary: SUMMARY_TEMPLATE },
    r.segmentWidth ?? 3,
  );
}

function fsAgent(r: InstructionRequest, a: NonNullable<InstructionRequest['agent']>): string {
  const dir = agentDir(r, a);
  const seg = segmentFileName(a.name, a.segment, r.segmentWidth ?? 3);
  return `Your memory is at:\n  ${rel(r, join(dir, 'memory.md'))}\n\nRead it first to understand your prior context. When done, replace it with your compacted state in this structure (specific locations, numbers and names; every decision dated, with its rationale):\n${BEGIN_FILE}\n${MEMORY_TEMPLATE(a.name)}${END_FILE}\n\nAlso write your segment record to:\n  ${rel(r, join(dir, seg))}\n\nFormat: exactly this, with ${PLACEHOLDER.timestamp} the current UTC time (ISO 8601, e.g. 2026-01-15T14:32:15Z) and the {...} lines filled in:\n${BEGIN_FILE}\n${segmentTemplate(r, a)}${END_FILE}\n`;
}

function sqliteAgent(r: InstructionRequest, a: NonNullable<InstructionRequest['agent']>): string {
  const db = agentDb(r, a.scope);
  const mem = `INSERT INTO agents (name, scope, memory, updated_at) VALUES (${sqlLit(a.name)}, ${sqlLit(a.scope)}, '${PLACEHOLDER.memory}', datetime('now')) ON CONFLICT (name) DO UPDATE SET memory = excluded.memory, updated_at = excluded.updated_at`;
  const seg = `INSERT INTO agent_segments (agent_name, segment_number, timestamp, prompt, summary) VALUES (${sqlLit(a.name)}, ${a.segment}, '${PLACEHOLDER.timestamp}', ${sqlLit(a.prompt)}, '${PLACEHOLDER.summary}')`;
  return `Your memory is in the database:\n  ${db}\n\nRead your current state:\n  ${r.sqlite3} -json ${shWord(db)} "SELECT memory FROM agents WHERE name = ${shDq(sqlLit(a.name))}"\n\nMemory structure (${PLACEHOLDER.memory}):\n${BEGIN_FILE}\n${MEMORY_TEMPLATE(a.name)}${END_FILE}\nSegment summary structure (${PLACEHOLDER.summary}):\n${BEGIN_FILE}\n${SUMMARY_TEMPLATE}${END_FILE}\n\nUpdate your memory and record segment ${a.segment} by running these commands; ${SQLITE_VALUE_RULE(`${PLACEHOLDER.memory} and ${PLACEHOLDER.summary}`)}, and ${PLACEHOLDER.timestamp} is the current UTC time (ISO 8601, e.g. 2026-01-15T14:32:15Z):\n${BEGIN_COMMAND}\n${sqliteCommand(r, db, mem)}\n${sqliteCommand(r, db, seg)}\n${END_COMMAND}\n`;
}

function pgAgent(r: InstructionRequest, a: NonNullable<InstructionRequest['agent']>): string {
  const runId = a.scope === 'execution' ? ":'run_id'" : 'NULL';
  const sql = [
    `INSERT INTO openprose.agents (name, scope, run_id, path, memory) VALUES (:'agent', :'scope', ${runId}, NULL, :'memory')`,
    `  ON CONFLICT (name, scope, COALESCE(run_id, ''), COALESCE(path, '')) DO UPDATE SET memory = EXCLUDED.memory, updated_at = now();`,
    `INSERT INTO openprose.agent_segments (agent_name, scope, run_id, path, segment_number, "timestamp", prompt, summary) VALUES (:'agent', :'scope', ${runId}, NULL, ${a.segment}, :'timestamp', :'prompt', :'summary');`,
  ].join('\n');
  const vars: [string, string][] = [
    ['agent', a.name],
    ['scope', a.scope],
    ...(a.scope === 'execution' ? [['run_id', r.target.runId] as [string, string]] : []),
    ['prompt', a.prompt],
    ['memory', PLACEHOLDER.memory],
    ['summary', PLACEHOLDER.summary],
    ['timestamp', PLACEHOLDER.timestamp],
  ];
  return `Your memory is in PostgreSQL: openprose.agents, name ${sqlLit(a.name)}, scope ${sqlLit(a.scope)}. Read it first.\n\nMemory structure (${PLACEHOLDER.memory}):\n${BEGIN_FILE}\n${MEMORY_TEMPLATE(a.name)}${END_FILE}\nSegment summary structure (${PLACEHOLDER.summary}):\n${BEGIN_FILE}\n${SUMMARY_TEMPLATE}${END_FILE}\n\nUpdate your memory and record segment ${a.segment} with this command; ${PSQL_VALUE_RULE(`${PLACEHOLDER.memory} and ${PLACEHOLDER.summary}`)}, and ${PLACEHOLDER.timestamp} is the current UTC time (ISO 8601):\n${BEGIN_COMMAND}\n${psql(vars, sql)}\n${END_COMMAND}\n`;
}

/** `attachments/{name}.md` at root, `attachments/{name}__{execution_id}.md` in a frame, relative to the run (decision attachment-naming). */
export const attachmentRel = (b: { name: string; executionId: number | null }) => `attachments/${bindingFile(b)}`;

function attachmentFile(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  return `First write your output to:\n  ${rel(r, join(r.target.runDir, attachmentRel(b)))}\n\nFormat: your output alone, verbatim, nothing added (the line ${PLACEHOLDER.value} replaced by it):\n${BEGIN_FILE}\n${PLACEHOLDER.value}\n${END_FILE}\n`;
}

function fsLargeBinding(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  // Decision fs-attachment-header: an attachment: header line and a one-line summary as the value.
  const a = attachmentRel(b);
  const file = formatBindingFile({
    name: b.name,
    kind: b.kind,
    executionId: b.executionId,
    source: b.source,
    value: `(attached: ${PLACEHOLDER.bytes} bytes in ${a})`,
    attachment: a,
  });
  return `Then write the binding file to:\n  ${bindingLocation(r, b)}\n\nFormat: exactly the text between the markers, with ${PLACEHOLDER.bytes} replaced by the size of your output in UTF-8 bytes:\n${BEGIN_FILE}\n${file}\n${END_FILE}\n`;
}

function sqliteLargeBinding(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  // sqlite.md "Large Outputs": the path in attachment_path, the value a summary (decision sqlite-attachments).
  const a = attachmentRel(b);
  const sql = `INSERT OR REPLACE INTO bindings (name, execution_id, kind, value, attachment_path, source_statement, updated_at) VALUES (${sqlLit(b.name)}, ${b.executionId ?? 'NULL'}, ${sqlLit(b.kind)}, 'Attached value (${PLACEHOLDER.bytes} bytes) - see ${a}', ${sqlLit(a)}, ${sqlLit(b.source)}, datetime('now'))`;
  return `Then record it by running this command from the project directory (${r.target.projectDir}), with ${PLACEHOLDER.bytes} replaced by the size of your output in UTF-8 bytes (the row holds the path and a summary, not the output):\n${BEGIN_COMMAND}\n${sqliteCommand(r, runDb(r), sql)}\n${END_COMMAND}\n`;
}

function pgLargeBinding(r: InstructionRequest, b: NonNullable<InstructionRequest['binding']>): string {
  // sqlite.md "Large Outputs" as postgres.md repeats it: attachment_path set, value NULL (decision pg-attachments).
  const sql = `INSERT INTO openprose.bindings (name, run_id, execution_id, kind, value, attachment_path, source_statement) VALUES (:'name', :'run_id', ${b.executionId ?? 'NULL'}, :'kind', NULL, :'attachment_path', :'source')\n  ON CONFLICT (name, run_id, COALESCE(execution_id, -1)) DO UPDATE SET kind = EXCLUDED.kind, value = EXCLUDED.value, attachment_path = EXCLUDED.attachment_path, source_statement = EXCLUDED.source_statement, updated_at = now();`;
  const cmd = psql(
    [
      ['name', b.name],
      ['run_id', r.target.runId],
      ['kind', b.kind],
      ['source', b.source],
      ['attachment_path', attachmentRel(b)],
    ],
    sql,
  );
  return `Then record it with this command (the row holds the path; its value stays NULL):\n${BEGIN_COMMAND}\n${cmd}\n${END_COMMAND}\n`;
}
