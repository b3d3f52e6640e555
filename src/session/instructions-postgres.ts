import {
  attachmentRel,
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
  PSQL_VALUE_RULE,
  SUMMARY_TEMPLATE,
} from './instruction-text.ts';
import { bindingKindColumn } from './edition-paths.ts';
import { shSq, sqlLit } from './shell-quote.ts';

/** The postgres backend's instructions: one psql command, the VM's values passed as psql variables (postgres.md). */

function psql(vars: [string, string][], sql: string): string {
  const v = vars.map(([k, x]) => `-v ${k}=${x.startsWith('<') ? `'${x}'` : shSq(x)}`).join(' ');
  return `psql "$OPENPROSE_POSTGRES_URL" -v ON_ERROR_STOP=1 ${v} <<'PROSE_SQL'\n${sql}\nPROSE_SQL`;
}

const bindingVars = (r: InstructionRequest, b: InstructionBinding): [string, string][] => [
  ['name', b.name],
  ['run_id', r.target.runId],
  ['kind', b.kind],
  ['source', b.source],
];

export function pgBinding(r: InstructionRequest, b: InstructionBinding): string {
  const kind = bindingKindColumn(r.target);
  const sql = [
    oneLine`INSERT INTO openprose.bindings (name, run_id, execution_id, ${kind}, value, source_statement)
      VALUES (:'name', :'run_id', ${b.executionId ?? 'NULL'}, :'kind', :'value', :'source')`,
    oneLine`  ON CONFLICT (name, run_id, COALESCE(execution_id, -1)) DO UPDATE SET ${kind} = EXCLUDED.${kind},
      value = EXCLUDED.value, attachment_path = NULL, source_statement = EXCLUDED.source_statement, updated_at = now();`,
  ].join('\n');
  const cmd = psql([...bindingVars(r, b), ['value', PLACEHOLDER.sqlValue]], sql);
  return lines(
    oneLine`Your output goes to PostgreSQL (schema openprose); the connection is in the environment variable
      OPENPROSE_POSTGRES_URL: use it as written, never print it.`,
    '',
    `When complete, run this command; ${PSQL_VALUE_RULE(PLACEHOLDER.sqlValue)}:`,
    BEGIN_COMMAND,
    cmd,
    END_COMMAND,
  );
}

export function pgLargeBinding(r: InstructionRequest, b: InstructionBinding): string {
  // sqlite.md "Large Outputs" as postgres.md repeats it: attachment_path set, value NULL (decision pg-attachments).
  const kind = bindingKindColumn(r.target);
  const sql = [
    oneLine`INSERT INTO openprose.bindings (name, run_id, execution_id, ${kind}, value, attachment_path, source_statement)
      VALUES (:'name', :'run_id', ${b.executionId ?? 'NULL'}, :'kind', NULL, :'attachment_path', :'source')`,
    oneLine`  ON CONFLICT (name, run_id, COALESCE(execution_id, -1)) DO UPDATE SET ${kind} = EXCLUDED.${kind},
      value = EXCLUDED.value, attachment_path = EXCLUDED.attachment_path, source_statement = EXCLUDED.source_statement,
      updated_at = now();`,
  ].join('\n');
  const cmd = psql([...bindingVars(r, b), ['attachment_path', attachmentRel(b)]], sql);
  return lines(
    'Then record it with this command (the row holds the path; its value stays NULL):',
    BEGIN_COMMAND,
    cmd,
    END_COMMAND,
  );
}

/** v0's agents and agent_segments carry a path (custom scope), NULL for the three fixed scopes. */
const PATH_COLUMN = { col: ', path', val: ', NULL', key: ", COALESCE(path, '')" };

export function pgAgent(r: InstructionRequest, a: InstructionAgent): string {
  const runId = a.scope === 'execution' ? ":'run_id'" : 'NULL';
  // The current Core Schema has no agents.path (custom scope left the text): its key is (name, scope, run_id).
  const path = r.target.edition === 'current' ? { col: '', val: '', key: '' } : PATH_COLUMN;
  const sql = [
    oneLine`INSERT INTO openprose.agents (name, scope, run_id${path.col}, memory)
      VALUES (:'agent', :'scope', ${runId}${path.val}, :'memory')`,
    oneLine`  ON CONFLICT (name, scope, COALESCE(run_id, '')${path.key})
      DO UPDATE SET memory = EXCLUDED.memory, updated_at = now();`,
    oneLine`INSERT INTO openprose.agent_segments
      (agent_name, scope, run_id${path.col}, segment_number, "timestamp", prompt, summary)
      VALUES (:'agent', :'scope', ${runId}${path.val}, ${a.segment}, :'timestamp', :'prompt', :'summary');`,
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
  return lines(
    oneLine`Your memory is in PostgreSQL: openprose.agents, name ${sqlLit(a.name)}, scope ${sqlLit(a.scope)}.
      Read it first.`,
    '',
    `Memory structure (${PLACEHOLDER.memory}):`,
    BEGIN_FILE,
    `${MEMORY_TEMPLATE(a.name)}${END_FILE}`,
    `Segment summary structure (${PLACEHOLDER.summary}):`,
    BEGIN_FILE,
    `${SUMMARY_TEMPLATE}${END_FILE}`,
    '',
    oneLine`Update your memory and record segment ${a.segment} with this command;
      ${PSQL_VALUE_RULE(`${PLACEHOLDER.memory} and ${PLACEHOLDER.summary}`)}, and ${PLACEHOLDER.timestamp} is the
      current UTC time (ISO 8601):`,
    BEGIN_COMMAND,
    psql(vars, sql),
    END_COMMAND,
  );
}
