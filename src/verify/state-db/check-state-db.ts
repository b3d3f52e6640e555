import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AGENT_SCOPES, BINDING_KINDS, RUN_STATUSES } from '../../core/model.ts';
import { checkName } from '../../core/names.ts';
import { isRunId } from '../../core/run-id.ts';
import { queryRows, SqliteFile, type Database, type SqlRow } from '../../sqlite/index.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { isKind } from '../kit/owned-files.ts';
import { MAX_ROWS_CHECKED, QueryBudget } from './query-budget.ts';
import { checkWorldModelTables } from './check-wm-tables.ts';
import { readOffloaded } from './offloaded-version.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
import { CORE_COLUMNS, sqlEditionOf } from './sql-edition.ts';
import { editionLayout, type Edition } from '../../core/editions.ts';
import type { StateDbRuleId } from './rules.ts';
import type { TablePlan } from '../projections/index.ts';

type Sink = FindingSink<StateDbRuleId>;

export interface StateDbOptions {
  /** How the database is named in findings. */
  file: string;
  /** The run directory attachment paths are relative to (absent for agents.db). */
  runDir?: string;
  /** The run directory name, which run.id must equal (top-level runs only). */
  expectRunId?: string;
  thresholdBytes: number;
  /** `run` for a state.db, `agents` for an agents.db (project or user scope). */
  dbKind: 'run' | 'agents';
  /** The time budget of the whole check (default QUERY_BUDGET_MS). */
  budgetMs?: number;
  /** Told the edition read, and given the projection plans of a current one (verify --rebuild-projections). */
  projections?: ProjectionCollector;
  /** The edition judged (`--edition`, or the run directory's); absent: the one the columns name. */
  edition?: Edition;
}

export interface ProjectionCollector {
  edition?: Edition;
  plans: TablePlan[];
}

const AGENT_TABLES = ['agents', 'agent_segments'];
/** Tables of sqlite.md at HEAD (the canonical store): known, so not reported as unknown extensions. */
const HEAD_TABLES = new Set(['world_model_version', 'world_model_published', 'receipt']);
const EXECUTION_STATUSES = new Set([
  'pending',
  'executing',
  'completed',
  'failed',
  'skipped',
  'started',
  'joined',
  'iteration',
  'exited',
  'retry',
  'allocated',
]);

/**
 * Opens a state.db or agents.db read-only through the WASM engine (its progress handler interrupts a query past the
 * time budget, query-budget.ts) and checks it; never throws on bad input.
 */
export async function checkStateDb(abs: string, sink: Sink, opts: StateDbOptions): Promise<void> {
  let file: SqliteFile | undefined;
  let budget: QueryBudget | undefined;
  try {
    file = await SqliteFile.open(abs, { timeoutMs: 2000, engine: 'wasm' });
    await file.read((db) => {
      budget = new QueryBudget(db, opts.budgetMs);
      checkDb(db, budget, sink, opts);
    });
  } catch (err) {
    if (budget?.interrupted)
      sink.add('db.budget', `checking ${opts.file} took over ${budget.ms} ms: interrupted, the rest is not checked`, {
        file: opts.file,
      });
    else sink.add('db.open', `cannot read ${opts.file}: ${(err as Error).message}`, { file: opts.file });
  } finally {
    budget?.dispose();
    file?.close();
  }
}

/** Checks an open database (checkStateDb's body; the projection rebuild runs it under its write lock). */
export function checkDb(db: Database, budget: QueryBudget, sink: Sink, opts: StateDbOptions): void {
  const types = new Map(
    queryRows(db, "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view')").map((r) => [
      String(r.name),
      String(r.type),
    ]),
  );
  const tables = new Set(types.keys());
  const edition = opts.edition ?? sqlEditionOf(db);
  if (opts.projections) opts.projections.edition = edition;
  const CORE = CORE_COLUMNS[edition];
  const required = opts.dbKind === 'run' ? Object.keys(CORE) : AGENT_TABLES;
  const usable = new Set<string>();
  for (const t of required) {
    if (!tables.has(t)) {
      sink.add('db.table-missing', `core table ${t} is missing`, { file: opts.file, table: t });
      continue;
    }
    // A view runs its query when read (an endless recursive CTE, say): where a table belongs it is never read.
    if (types.get(t) !== 'table') {
      sink.add('db.not-a-table', `core table ${t} is a ${types.get(t)}, not a table: it is not read`, {
        file: opts.file,
        table: t,
      });
      continue;
    }
    const have = new Set(queryRows(db, 'SELECT name FROM pragma_table_info(?)', [t]).map((r) => String(r.name)));
    const missing = CORE[t]!.filter((c) => !have.has(c));
    if (missing.length)
      sink.add('db.column-missing', `table ${t} has no column ${missing.join(', ')}`, { file: opts.file, table: t });
    else usable.add(t);
  }
  for (const t of usable) {
    if (budget.count(t) > MAX_ROWS_CHECKED)
      sink.add(
        'db.budget',
        `table ${t} holds more than ${MAX_ROWS_CHECKED} rows: only the first ${MAX_ROWS_CHECKED} are checked`,
        {
          file: opts.file,
          table: t,
        },
      );
  }
  for (const t of tables) {
    if (!(t in CORE) && !t.startsWith('x_') && !t.startsWith('sqlite_') && !HEAD_TABLES.has(t)) {
      sink.add('db.table-unknown', `table ${t} is neither a core table nor an x_ extension`, {
        file: opts.file,
        table: t,
      });
    }
  }
  const q = (sql: string, params: unknown[] = []): SqlRow[] => budget.rows(sql, params);
  if (usable.has('run')) checkRun(q, sink, opts);
  if (usable.has('bindings')) checkBindingRows(q, sink, opts, editionLayout(edition).sqlColumns.bindingKind);
  if (usable.has('execution')) checkExecution(q, sink, opts);
  if (usable.has('agents')) checkAgents(q, sink, opts);
  if (usable.has('agent_segments')) checkSegments(q, sink, opts, usable.has('agents'));
  if (opts.dbKind === 'run') checkHeadTables(db, types, budget, sink, opts, edition);
}

/** The canonical world-model tables (check-wm-tables.ts), read through the same budget as the core ones. */
function checkHeadTables(
  db: Database,
  types: Map<string, string>,
  budget: QueryBudget,
  sink: Sink,
  opts: StateDbOptions,
  edition: Edition,
): void {
  const { file, runDir } = opts;
  const wm = {
    // The current text keys a version by its address alone: two nodes' identical artifacts share one row.
    sharedVersions: edition === 'current',
    // Only the current texts call the published pointer a projection (decision sql-projections).
    ...(edition === 'current' ? { projections: opts.projections?.plans ?? [] } : {}),
    q: (sql: string, params: unknown[] = []) => budget.rows(sql, params),
    file,
    columns: headColumns(db, types, sink, file),
    notTables: [...HEAD_TABLES].filter((t) => types.has(t) && types.get(t) !== 'table'),
    count: (t: string) => budget.count(t),
    ...(runDir !== undefined ? { offloaded: (p: string) => readOffloaded(runDir, p, DEFAULT_MAX_FILE_BYTES) } : {}),
  };
  checkWorldModelTables(wm, sink);
}

/** The columns of each canonical table present as a table; one that is a view is named and not read, as a core one. */
function headColumns(db: Database, types: Map<string, string>, sink: Sink, file: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of HEAD_TABLES) {
    const type = types.get(t);
    if (type === 'table')
      out.set(t, new Set(queryRows(db, 'SELECT name FROM pragma_table_info(?)', [t]).map((r) => String(r.name))));
    else if (type !== undefined)
      sink.add('db.not-a-table', `world-model table ${t} is a ${type}, not a table: the ledger is not read`, {
        file,
        table: t,
      });
  }
  return out;
}

type Q = (sql: string, params?: unknown[]) => SqlRow[];

function checkRun(q: Q, sink: Sink, opts: StateDbOptions): void {
  const rows = q('SELECT rowid AS r, id, status FROM run');
  if (rows.length === 0) sink.add('db.run-row', 'table run has no row', { file: opts.file, table: 'run' });
  for (const r of rows) {
    const where = { file: opts.file, table: 'run', row: `id=${sqlText(r.id)}` };
    if (typeof r.id !== 'string' || !isRunId(r.id))
      sink.add('db.run-id', `run.id ${sqlText(r.id)} is not {YYYYMMDD}-{HHMMSS}-{random6}`, where);
    else if (opts.expectRunId !== undefined && r.id !== opts.expectRunId)
      sink.add('db.run-id', `run.id ${r.id} but the directory is ${opts.expectRunId}`, where);
    if (!(RUN_STATUSES as readonly unknown[]).includes(r.status))
      sink.add('db.run-status', `run.status ${sqlText(r.status)} is not one of ${RUN_STATUSES.join(', ')}`, where);
  }
}

function checkBindingRows(q: Q, sink: Sink, opts: StateDbOptions, kindColumn: string): void {
  for (const d of q(
    'SELECT name, execution_id, count(*) AS n FROM bindings GROUP BY name, IFNULL(execution_id, -1) HAVING count(*) > 1',
  )) {
    sink.add(
      'db.binding-duplicate',
      `${d.n} rows hold binding ${sqlText(d.name)} at execution_id ${sqlText(d.execution_id)}`,
      { file: opts.file, table: 'bindings', row: bindingRow(d) },
    );
  }
  const rows = q(
    `SELECT name, execution_id, ${kindColumn} AS kind, length(CAST(value AS BLOB)) AS bytes, attachment_path FROM bindings`,
  );
  for (const r of rows) {
    const where = { file: opts.file, table: 'bindings', row: bindingRow(r) };
    try {
      checkName('binding', r.name);
    } catch (err) {
      sink.add('db.binding-name', (err as Error).message, where);
    }
    if (!(BINDING_KINDS as readonly unknown[]).includes(r.kind))
      sink.add('db.binding-kind', `${kindColumn} ${sqlText(r.kind)} is not input, output, let or const`, where);
    if (
      r.execution_id !== null &&
      !(typeof r.execution_id === 'number' && Number.isSafeInteger(r.execution_id) && r.execution_id >= 1)
    ) {
      sink.add(
        'db.binding-execution-id',
        `execution_id ${sqlText(r.execution_id)} is neither NULL nor a positive integer`,
        where,
      );
    }
    if (r.attachment_path !== null) checkAttachment(String(r.attachment_path), sink, opts, where);
    else if (Number(r.bytes ?? 0) > opts.thresholdBytes) {
      sink.add(
        'db.binding-too-large',
        `the value is ${r.bytes} bytes, over the ${opts.thresholdBytes}-byte threshold, and has no attachment_path`,
        where,
      );
    }
  }
}

function checkAttachment(
  stored: string,
  sink: Sink,
  opts: StateDbOptions,
  where: { file: string; table: string; row: string },
): void {
  if (opts.runDir === undefined) return;
  const full = resolve(opts.runDir, stored);
  const rel = relative(opts.runDir, full);
  if (isAbsolute(stored) || stored.includes('\\') || rel.startsWith('..') || rel.split(sep)[0] !== 'attachments') {
    sink.add(
      'db.attachment',
      `attachment_path ${JSON.stringify(stored)} is not a relative path under attachments/ of the run`,
      where,
    );
    return;
  }
  if (!isKind(full, 'file')) sink.add('db.attachment', `attachment ${stored} does not exist`, where);
}

function checkExecution(q: Q, sink: Sink, opts: StateDbOptions): void {
  for (const r of q(
    'SELECT id, parent_id FROM execution WHERE parent_id IS NOT NULL AND parent_id NOT IN (SELECT id FROM execution)',
  )) {
    sink.add(
      'db.execution-parent',
      `parent_id ${sqlText(r.parent_id)} of execution row ${r.id} names no execution row`,
      { file: opts.file, table: 'execution', row: `id=${r.id}` },
    );
  }
  for (const r of q('SELECT status, min(id) AS id, count(*) AS n FROM execution GROUP BY status')) {
    if (typeof r.status !== 'string' || !EXECUTION_STATUSES.has(r.status)) {
      sink.add('db.execution-status', `status ${sqlText(r.status)} (${r.n} rows) is not a known status token`, {
        file: opts.file,
        table: 'execution',
        row: `id=${r.id}`,
      });
    }
  }
}

function checkAgents(q: Q, sink: Sink, opts: StateDbOptions): void {
  for (const r of q('SELECT name, scope FROM agents')) {
    const where = { file: opts.file, table: 'agents', row: `name=${sqlText(r.name)}` };
    try {
      checkName('agent', r.name);
    } catch (err) {
      sink.add('db.agent-name', (err as Error).message, where);
    }
    if (!(AGENT_SCOPES as readonly unknown[]).includes(r.scope))
      sink.add('db.agent-scope', `scope ${sqlText(r.scope)} is not execution, project, user or custom`, where);
    else if ((opts.dbKind === 'run') !== (r.scope === 'execution')) {
      sink.add(
        'db.agent-scope-place',
        `a ${r.scope}-scope agent in ${opts.dbKind === 'run' ? "a run's state.db" : 'agents.db'}`,
        where,
      );
    }
  }
}

function checkSegments(q: Q, sink: Sink, opts: StateDbOptions, haveAgents: boolean): void {
  for (const d of q(
    'SELECT agent_name, segment_number, count(*) AS n FROM agent_segments GROUP BY agent_name, segment_number HAVING count(*) > 1',
  )) {
    sink.add(
      'db.segment-duplicate',
      `${d.n} rows hold segment ${sqlText(d.segment_number)} of ${sqlText(d.agent_name)}`,
      {
        file: opts.file,
        table: 'agent_segments',
        row: `agent_name=${sqlText(d.agent_name)}, segment_number=${sqlText(d.segment_number)}`,
      },
    );
  }
  const byAgent = new Map<string, number[]>();
  for (const r of q(
    'SELECT DISTINCT agent_name, segment_number FROM agent_segments ORDER BY agent_name, segment_number',
  )) {
    const key = String(r.agent_name);
    byAgent.set(key, [...(byAgent.get(key) ?? []), typeof r.segment_number === 'number' ? r.segment_number : NaN]);
  }
  for (const [agent, numbers] of byAgent) {
    const gap = numbers.findIndex((n, i) => n !== i + 1);
    if (gap !== -1) {
      sink.add(
        'db.segment-sequence',
        `segments of ${agent} are ${numbers.slice(0, 8).join(', ')}${numbers.length > 8 ? ', ...' : ''}: expected 1, 2, 3, ...`,
        { file: opts.file, table: 'agent_segments', row: `agent_name=${sqlText(agent)}` },
      );
    }
  }
  if (!haveAgents) return;
  for (const r of q(
    'SELECT DISTINCT agent_name FROM agent_segments WHERE agent_name IS NULL OR agent_name NOT IN (SELECT name FROM agents)',
  )) {
    sink.add('db.segment-agent', `segments of ${sqlText(r.agent_name)} name no agents row`, {
      file: opts.file,
      table: 'agent_segments',
      row: `agent_name=${sqlText(r.agent_name)}`,
    });
  }
}

function bindingRow(r: SqlRow): string {
  return `name=${sqlText(r.name)}, execution_id=${sqlText(r.execution_id)}`;
}

/** A value as SQL would print it: 'text', 42, NULL. */
function sqlText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  if (v instanceof Uint8Array) return `x'${Buffer.from(v).toString('hex').slice(0, 32)}'`;
  return String(v);
}
