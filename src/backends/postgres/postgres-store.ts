import type { StorageView } from '../../core/backend.ts';
import type { Decisions } from '../../core/decisions.ts';
import type { Edition } from '../../core/editions.ts';
import { isoSeconds } from '../../core/time-format.ts';
import { ProseError } from '../../core/errors.ts';
import type {
  AgentLocation,
  BindingKind,
  BindingRecord,
  ExecutionEvent,
  ExecutionId,
  RunRecord,
  RunRef,
  RunStatus,
  Segment,
} from '../../core/model.ts';
import type { StateStore, WorldModelStore } from '../../core/store.ts';
import { PostgresWorldModelStore, WORLD_MODEL_PG_DDL } from './world-model-store.ts';
import { DurableWorldModelStore } from './durable-world-model-store.ts';
import { AgentSql } from './agent-sql.ts';
import { editionColumns, type EditionColumns } from './edition-columns.ts';
import { Attachments } from './attachments.ts';
import { eventColumns } from './event-columns.ts';
import type { PgDb } from './pg-db.ts';
import { importSourceUrl } from '../../core/import-url.ts';
import { PgError } from './pg-error.ts';
import { checkStorableText } from './sql-literal.ts';
import { readOnlyView } from './storage-view.ts';
import { EventLogCache } from './event-log-cache.ts';
import type { LogWatch } from './log-watch.ts';
import { BindingCache, idKey } from './binding-cache.ts';
import type { RowWatch } from './mem-row-watch.ts';
import { SegmentSql } from './segment-sql.ts';

/** The change counts a store checks its caches against: the log's, the bindings', the segments' and the receipts'. */
export interface StoreWatches {
  log?: LogWatch;
  bindings?: RowWatch;
  segments?: RowWatch;
  receipts?: RowWatch;
  /** Not a count: statements run once the world-model tables exist, for an engine that needs its own indexes (pg-mem). */
  lookupIndexes?: readonly string[];
}

interface BindingRow {
  name: string;
  /** Selected AS kind in both editions. */
  kind: BindingKind;
  value: string | null;
  execution_id: number | null;
  source_statement: string | null;
  attachment_path: string | null;
}
interface RunRow {
  id: string;
  /** Selected AS path and source in both editions. */
  path: string | null;
  source: string | null;
  started_at: Date | string;
  status: RunStatus;
  metadata: { run_id?: string } | null;
}

/**
 * What the PostgreSQL backend persists, in schema openprose (ddl.ts for v0, ddl-current.ts for the current edition).
 * Written once against pg's Pool shape, so it runs unchanged on pg-mem and on a real server; every method commits
 * before it resolves.
 */
export class PostgresStore implements StateStore {
  private readonly attachments: Attachments;
  /** The canonical world-model and receipt ledger (world-model-store.ts; durable-world-model-store.ts when current). */
  readonly worldModel: WorldModelStore;
  private readonly log: EventLogCache;
  private readonly cols: EditionColumns;
  private readonly agent: AgentSql;
  private readonly bindingColumns: string;
  private readonly bindings: BindingCache<BindingRow>;

  private readonly segments: SegmentSql;

  /** `watches`: the storage's own counts of changes to its tables, when the engine keeps them (pg-mem: mem-*-watch.ts). */
  constructor(
    private readonly db: PgDb,
    private readonly projectDir: string,
    decisions: Decisions,
    edition: Edition = 'v0',
    watches: StoreWatches = {},
  ) {
    this.attachments = new Attachments(projectDir, edition);
    this.worldModel =
      edition === 'current'
        ? new DurableWorldModelStore(db, watches.receipts, watches.lookupIndexes)
        : new PostgresWorldModelStore(db, [...WORLD_MODEL_PG_DDL, ...(watches.lookupIndexes ?? [])], watches.receipts);
    this.log = new EventLogCache(watches.log);
    this.cols = editionColumns(edition);
    this.agent = new AgentSql(edition);
    this.segments = new SegmentSql(db, this.agent, decisions, watches.segments);
    this.bindingColumns = `name, ${this.cols.bindingKind} AS kind, value, execution_id, source_statement, attachment_path`;
    this.bindings = new BindingCache<BindingRow>(watches.bindings, {
      run: (run) =>
        this.db.query<BindingRow & Record<string, unknown>>(
          `SELECT ${this.bindingColumns} FROM openprose.bindings WHERE run_id = $1`,
          [run],
        ),
      name: (run, name, ids) => this.readName(run, name, ids),
    });
  }

  async createRun(run: RunRecord): Promise<RunRef> {
    // A plain INSERT: pg-mem answers ON CONFLICT (id) DO NOTHING RETURNING with the row even on a conflict.
    try {
      await this.db.query(
        `INSERT INTO openprose.run (id, ${this.cols.runPath}, ${this.cols.runSource}, started_at, status, metadata) ` +
          `VALUES ($1, $2, $3, $4::timestamptz, $5, $6::jsonb)`,
        [
          run.runId,
          run.programPath ?? null,
          checkStorableText('program', run.program),
          run.startedAt,
          run.status,
          { run_id: run.runId },
        ],
      );
    } catch (err) {
      if (err instanceof PgError && err.sqlState === '23505') {
        throw new ProseError('E_CONFLICT', `run id ${run.runId} is already taken`, {
          location: { field: 'runId' },
          hint: 'omit runId to get a fresh one',
        });
      }
      throw err;
    }
    return run.runId;
  }

  async readRun(run: RunRef): Promise<RunRecord | undefined> {
    // No run can be stored under a reference PostgreSQL text cannot hold: it is simply not there.
    if (run.includes('\u0000')) return undefined;
    const [row] = await this.db.query<RunRow & Record<string, unknown>>(
      `SELECT id, ${this.cols.runPath} AS path, ${this.cols.runSource} AS source, started_at, status, metadata ` +
        `FROM openprose.run WHERE id = $1`,
      [run],
    );
    if (!row) return undefined;
    return {
      runId: row.metadata?.run_id ?? row.id,
      program: row.source ?? '',
      status: row.status,
      startedAt: isoSeconds(new Date(row.started_at)),
      ...(row.path !== null ? { programPath: row.path } : {}),
    };
  }

  async setRunStatus(run: RunRef, status: RunStatus): Promise<void> {
    await this.db.query(`UPDATE openprose.run SET status = $2, updated_at = now() WHERE id = $1`, [run, status]);
  }

  /** The nested run and its imports row are one atomic write: neither exists without the other. */
  async createImport(parent: RunRef, handle: string, slug: string, record: RunRecord): Promise<RunRef> {
    const alias = `${handle}--${slug}`;
    const ref = `${parent}/imports/${alias}`;
    try {
      await this.db.atomic([
        {
          sql: `INSERT INTO openprose.run (id, ${this.cols.runSource}, started_at, status, metadata) VALUES ($1, $2, $3::timestamptz, $4, $5::jsonb)`,
          params: [
            ref,
            checkStorableText('program', record.program),
            record.startedAt,
            record.status,
            { run_id: record.runId, parent, handle, slug },
          ],
        },
        {
          sql: `INSERT INTO openprose.imports (alias, run_id, import_run_id, ${this.cols.importSource}, metadata) VALUES ($1, $2, $3, $4, $5::jsonb)`,
          params: [alias, parent, ref, importSourceUrl(handle, slug), { handle, slug }],
        },
      ]);
    } catch (err) {
      if (err instanceof PgError && err.sqlState === '23505') {
        throw new ProseError('E_CONFLICT', `run ${parent} already imports ${alias}`, { location: { field: 'slug' } });
      }
      throw err;
    }
    return ref;
  }

  async appendEvent(run: RunRef, event: ExecutionEvent): Promise<void> {
    await this.insertEvent(this.db, run, event);
  }

  /** The engine's atomic append: read, decide and insert while holding the run's advisory lock (pg-db.ts). */
  async appendEventAtomically(
    run: RunRef,
    make: (events: readonly ExecutionEvent[]) => ExecutionEvent,
  ): Promise<ExecutionEvent> {
    return this.db.exclusive(`openprose.run:${run}`, async (db) => {
      const event = make(await this.readEventsWith(db, run));
      await this.insertEvent(db, run, event);
      return event;
    });
  }

  private async insertEvent(db: PgDb, run: RunRef, event: ExecutionEvent): Promise<void> {
    let parentRow: number | null = null;
    if (event.type === 'frame-enter' && event.parent !== null) {
      // parent_id links frame rows, so the spec's recursive CTE can walk openprose.execution (scope-chain-sql.ts).
      const [p] = await db.query<{ id: number }>(
        `SELECT id FROM openprose.execution WHERE run_id = $1 AND event_type = 'frame-enter' AND execution_id = $2 ORDER BY id LIMIT 1`,
        [run, event.parent],
      );
      parentRow = p?.id ?? null;
    }
    const c = eventColumns(event);
    await db.query(
      'INSERT INTO openprose.execution (run_id, event_type, statement_index, statement_text, status, execution_id, ' +
        'parent_id, error_message, completed_at, metadata)\n' +
        '       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9::boolean THEN now() ELSE NULL END, $10::jsonb)',
      [
        run,
        event.type,
        c.statementIndex,
        c.statementText,
        c.status,
        c.executionId,
        parentRow,
        c.errorMessage,
        c.completed,
        event as unknown as Record<string, unknown>,
      ],
    );
  }

  async readEvents(run: RunRef): Promise<readonly ExecutionEvent[]> {
    return this.readEventsWith(this.db, run);
  }

  private readEventsWith(db: PgDb, run: RunRef): Promise<readonly ExecutionEvent[]> {
    return this.log.read(db, run);
  }

  async writeBinding(run: RunRef, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    checkStorableText('value', b.value);
    if (b.source !== undefined) checkStorableText('source', b.source);
    const relative = this.attachments.relativePath(b.name, b.executionId);
    if (attach) this.attachments.write(run, relative, b.value);
    // The const check is repeated inside the upsert, so two writers racing on a const cannot both win.
    const k = this.cols.bindingKind;
    const before = this.bindings.before(run, b.name);
    const rows = await this.db.query<BindingRow & Record<string, unknown>>(
      `INSERT INTO openprose.bindings (name, run_id, execution_id, ${k}, value, source_statement, attachment_path)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (name, run_id, COALESCE(execution_id, -1)) DO UPDATE SET ${k} = EXCLUDED.${k}, value = EXCLUDED.value,
         source_statement = EXCLUDED.source_statement, attachment_path = EXCLUDED.attachment_path, updated_at = now()
       WHERE openprose.bindings.${k} <> 'const' RETURNING ${this.bindingColumns}`,
      [b.name, run, b.executionId, b.kind, attach ? null : b.value, b.source ?? null, attach ? relative : null],
    );
    if (rows.length === 0) throw new ProseError('E_CONST_REBIND', `const ${b.name} is already bound`);
    this.bindings.wrote(run, b.name, before, rows[0]!);
    if (!attach) this.attachments.remove(run, relative);
    const where = `openprose.bindings (run_id='${run}', name='${b.name}', execution_id=${b.executionId ?? 'NULL'})`;
    return { location: attach ? `${where}, value in ${this.attachments.displayPath(run, relative)}` : where };
  }

  async readBinding(run: RunRef, name: string, executionId: ExecutionId | null): Promise<BindingRecord | undefined> {
    const row = (await this.bindings.rows(run, name, [executionId])).get(idKey(executionId));
    return row ? this.toBinding(run, row) : undefined;
  }

  /** The seed's "simpler version if you know the scope chain": the name's rows, then the innermost match wins. */
  async resolveBinding(run: RunRef, name: string, chain: (ExecutionId | null)[]): Promise<BindingRecord | undefined> {
    const rows = await this.bindings.rows(run, name, chain);
    for (const id of chain) {
      const row = rows.get(idKey(id));
      if (row) return this.toBinding(run, row);
    }
    return undefined;
  }

  /** One name's rows: of the execution ids in `ids` (NULL always) when given, else all of them. */
  private readName(run: RunRef, name: string, ids?: readonly (ExecutionId | null)[]): Promise<BindingRow[]> {
    const numbers = ids?.filter((x): x is ExecutionId => x !== null) ?? [];
    const inList = numbers.map((_, i) => `$${i + 3}`).join(', ');
    const only =
      ids === undefined ? '' : ` AND (execution_id IS NULL${numbers.length ? ` OR execution_id IN (${inList})` : ''})`;
    return this.db.query<BindingRow & Record<string, unknown>>(
      `SELECT ${this.bindingColumns} FROM openprose.bindings WHERE run_id = $1 AND name = $2${only}`,
      [run, name, ...numbers],
    );
  }

  async listBindings(run: RunRef): Promise<BindingRecord[]> {
    const rows = await this.db.query<BindingRow & Record<string, unknown>>(
      `SELECT ${this.bindingColumns} FROM openprose.bindings WHERE run_id = $1 ORDER BY name, execution_id`,
      [run],
    );
    return rows.map((r) => this.toBinding(run, r));
  }

  async writeMemory(loc: AgentLocation, memory: string): Promise<{ location: string }> {
    checkStorableText('memory', memory);
    await this.db.query(
      `INSERT INTO openprose.agents (${this.agent.columns('name')}, memory) VALUES (${this.agent.marks()}, $${this.agent.next})
       ON CONFLICT ${this.agent.conflict()} DO UPDATE SET memory = EXCLUDED.memory, updated_at = now()`,
      [...this.agent.key(loc), memory],
    );
    return { location: `openprose.agents (${describeAgent(loc)})` };
  }

  async readMemory(loc: AgentLocation): Promise<string | undefined> {
    const [row] = await this.db.query<{ memory: string | null }>(
      `SELECT memory FROM openprose.agents WHERE ${this.agent.where('name')}`,
      this.agent.key(loc),
    );
    return row?.memory ?? undefined;
  }

  appendSegment(loc: AgentLocation, s: Omit<Segment, 'number' | 'file'>): Promise<Segment> {
    return this.segments.append(loc, s);
  }

  listSegments(loc: AgentLocation): Promise<Segment[]> {
    return this.segments.list(loc);
  }

  storage(): StorageView {
    return readOnlyView(this.db, this.projectDir);
  }

  async close(): Promise<void> {
    await this.db.end();
  }

  private toBinding(run: RunRef, r: BindingRow): BindingRecord {
    const attached = r.attachment_path !== null;
    return {
      name: r.name,
      kind: r.kind,
      executionId: r.execution_id === null ? null : Number(r.execution_id),
      value: attached ? this.attachments.read(run, r.attachment_path!) : (r.value ?? ''),
      ...(r.source_statement !== null ? { source: r.source_statement } : {}),
      ...(attached ? { attached: true } : {}),
    };
  }
}

function describeAgent(loc: AgentLocation): string {
  const extra =
    loc.scope === 'execution' ? `, run_id='${loc.run}'` : loc.scope === 'custom' ? `, path='${loc.path}'` : '';
  return `name='${loc.agent}', scope='${loc.scope}'${extra}`;
}
