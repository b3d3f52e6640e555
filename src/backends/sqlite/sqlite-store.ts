import { existsSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Row, StorageView } from '../../core/backend.ts';
import type { Decisions } from '../../core/decisions.ts';
import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type {
  AgentLocation,
  BindingRecord,
  ExecutionEvent,
  ExecutionId,
  RunRecord,
  RunRef,
  RunStatus,
  Segment,
} from '../../core/model.ts';
import { segmentFileName } from '../../core/numbering.ts';
import type { StateStore, WorldModelStore } from '../../core/store.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import {
  checkVersion,
  decodeWtf8,
  encodeWtf8,
  ensureSchema,
  execute,
  needsSchema,
  queryRow,
  queryRows,
  queryValue,
  SqliteFile,
  type Database,
  type DbKind,
  type SqliteEngine,
} from '../../sqlite/index.ts';
import { eventsOf, insertEvent } from './event-sql.ts';
import { bindingFromRow, RESOLVE_SQL, sqlLiteral, type BindingRow } from './binding-rows.ts';
import { importSourceUrl } from '../../core/import-url.ts';
import { SqlitePaths } from './sqlite-paths.ts';
import { editionSql, upsertBindingSql, type EditionSql } from './edition-sql.ts';
import { SqliteWorldModelStore } from './world-model-store.ts';
import { openAdopted } from './open-adopted.ts';

/**
 * sqlite.md's layout: one state.db per run, agents.db per persistent scope, attachments beside the run's db; in the
 * edition the constructor names (v0 by default), its paths and its Core Schema's columns (edition-sql.ts).
 */
export class SqliteStore implements StateStore {
  private readonly paths: SqlitePaths;
  private readonly sql: EditionSql;
  private readonly files = new Map<string, Promise<SqliteFile>>();
  private readonly views = new Map<string, SqliteFile>();
  /** The canonical world-model and receipt tables of each run's state.db (world-model-store.ts). */
  readonly worldModel: WorldModelStore;

  /** `engine`: which locks keep other processes off the pages (src/sqlite/engine.ts); the process default if absent. */
  constructor(
    projectDir: string,
    homeDir: string,
    private readonly decisions: Decisions,
    private readonly engine?: SqliteEngine,
    readonly edition: Edition = 'v0',
  ) {
    this.paths = new SqlitePaths(projectDir, homeDir, edition);
    this.sql = editionSql(edition);
    this.worldModel = new SqliteWorldModelStore(
      (run) => this.runFile(run),
      (run) => this.paths.runDir(run),
      edition,
    );
  }

  async createRun(rec: RunRecord): Promise<RunRef> {
    await this.makeRun(rec.runId, rec);
    return rec.runId;
  }

  async createImport(parent: RunRef, handle: string, slug: string, rec: RunRecord): Promise<RunRef> {
    const parentDb = await this.runFile(parent);
    // alias is the import's directory name, {handle}--{slug}: unique per import; source_url (current: source_ref)
    // the fetch URL (docs/decisions.md sqlite-imports, sql-import-alias, sqlite-current-imports).
    const alias = `${handle}--${slug}`;
    const ref = `${parent}/imports/${alias}`;
    await this.makeRun(ref, rec);
    await this.writeWithSchema(parentDb, 'run', (db) => {
      execute(db, this.sql.insertImport, [alias, importSourceUrl(handle, slug)]);
    });
    return ref;
  }

  private async makeRun(ref: RunRef, rec: RunRecord): Promise<void> {
    const dir = this.paths.runDir(ref);
    const path = join(dir, 'state.db');
    if (existsSync(path))
      throw new ProseError('E_CONFLICT', `run ${this.paths.display(path)} already exists`, {
        location: { field: 'runId' },
      });
    mkdirSync(dir, { recursive: true });
    const file = await this.file(path, 'run');
    await this.writeWithSchema(file, 'run', (db) => {
      if (Number(queryValue(db, 'SELECT count(*) FROM run')) > 0) {
        throw new ProseError('E_CONFLICT', `run ${this.paths.display(path)} already exists`, {
          location: { field: 'runId' },
        });
      }
      // Under the lock and after the check, so a losing racer never overwrites the winner's program.
      writeFileAtomic(join(dir, this.sql.programFile), encodeWtf8(rec.program));
      const programPath = rec.programPath ?? null;
      execute(db, this.sql.insertRun, [
        rec.runId,
        programPath,
        encodeWtf8(rec.program),
        rec.startedAt,
        rec.startedAt,
        rec.status,
      ]);
    });
  }

  async readRun(run: RunRef): Promise<RunRecord | undefined> {
    const path = this.paths.runDb(run);
    if (!existsSync(path)) return undefined;
    const file = await this.runFile(run);
    const row = await file.read((db) => queryRow(db, this.sql.selectRun));
    if (!row) return undefined;
    const program = row.program_source ?? readProgram(join(dirname(path), this.sql.programFile));
    return {
      runId: String(row.id),
      program: String(program ?? ''),
      status: String(row.status ?? 'running') as RunStatus,
      startedAt: String(row.started_at ?? ''),
      ...(row.program_path != null ? { programPath: String(row.program_path) } : {}),
    };
  }

  async setRunStatus(run: RunRef, status: RunStatus): Promise<void> {
    await this.writeWithSchema(await this.runFile(run), 'run', (db) => {
      execute(db, "UPDATE run SET status = ?, updated_at = datetime('now')", [status]);
    });
  }

  async appendEvent(run: RunRef, event: ExecutionEvent): Promise<void> {
    await this.writeWithSchema(await this.runFile(run), 'run', (db) => insertEvent(db, event));
  }

  /** Read, decide and append in one transaction under the run's lock, so two processes never allocate alike. */
  async appendEventAtomically(
    run: RunRef,
    make: (events: readonly ExecutionEvent[]) => ExecutionEvent,
  ): Promise<ExecutionEvent> {
    return this.writeWithSchema(await this.runFile(run), 'run', (db) => {
      const event = make(eventsOf(db));
      insertEvent(db, event);
      return event;
    });
  }

  async readEvents(run: RunRef): Promise<readonly ExecutionEvent[]> {
    return (await this.runFile(run)).read(eventsOf);
  }

  async writeBinding(run: RunRef, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    const dir = this.paths.runDir(run);
    const file = await this.runFile(run);
    const attachment = attach ? SqlitePaths.attachmentPath(b.name, b.executionId) : null;
    const bytes = Buffer.byteLength(b.value, 'utf8');
    const stored = attachment ? `Attached value (${bytes} bytes) - see ${attachment}` : b.value;
    const old = await this.writeWithSchema(file, 'run', (db) => {
      const before = queryValue(
        db,
        'SELECT attachment_path FROM bindings WHERE name = ? AND IFNULL(execution_id, -1) = IFNULL(?, -1)',
        [b.name, b.executionId],
      );
      // The attachment is complete on disk before the row that points at it commits.
      if (attachment) writeFileAtomic(join(dir, attachment), encodeWtf8(b.value));
      execute(db, upsertBindingSql(this.sql.kindColumn), [
        b.name,
        b.executionId,
        b.kind,
        encodeWtf8(stored),
        b.source === undefined ? null : encodeWtf8(b.source),
        attachment,
      ]);
      return before == null ? null : String(before);
    });
    if (old && old !== attachment) {
      // A stored path outside attachments/ (written by hand) is left alone rather than deleted.
      try {
        removeQuietly(this.paths.attachmentFile(dir, old, file.path));
      } catch {
        /* not ours to delete */
      }
    }
    const where = b.executionId === null ? 'NULL' : String(b.executionId);
    return {
      location: `${this.paths.display(file.path)} (bindings table, name=${sqlLiteral(b.name)}, execution_id=${where})`,
    };
  }

  async readBinding(run: RunRef, name: string, executionId: ExecutionId | null): Promise<BindingRecord | undefined> {
    const file = await this.runFile(run);
    const row = await file.read(
      (db) =>
        queryRow(db, 'SELECT * FROM bindings WHERE name = ? AND IFNULL(execution_id, -1) = IFNULL(?, -1)', [
          name,
          executionId,
        ]) as BindingRow | undefined,
    );
    return row && this.toRecord(run, row, file.path);
  }

  /** The seed's scope-resolution CTE, walking our frame rows (see binding-rows.ts). */
  async resolveBinding(run: RunRef, name: string, chain: (ExecutionId | null)[]): Promise<BindingRecord | undefined> {
    const start = chain[0] ?? null;
    if (start === null) return this.readBinding(run, name, null);
    const file = await this.runFile(run);
    const row = await file.read(
      (db) => queryRow(db, RESOLVE_SQL, { ':eid': start, ':name': name }) as BindingRow | undefined,
    );
    if (row && !chain.includes(row.execution_id ?? null)) {
      throw new ProseError(
        'E_CORRUPT',
        `the execution table's parent_id chain of frame ${start} disagrees with its frame events`,
        { location: { file: file.path, field: 'execution.parent_id' } },
      );
    }
    return row && this.toRecord(run, row, file.path);
  }

  async listBindings(run: RunRef): Promise<BindingRecord[]> {
    const rows = await (
      await this.runFile(run)
    ).read(
      (db) => queryRows(db, 'SELECT * FROM bindings ORDER BY name, IFNULL(execution_id, 0)') as unknown as BindingRow[],
    );
    return rows.map((r) => bindingFromRow(r, this.sql.kindColumn));
  }

  async writeMemory(loc: AgentLocation, memory: string): Promise<{ location: string }> {
    const file = await this.agentFile(loc, true);
    await this.writeWithSchema(file, kindOf(loc), (db) => {
      execute(
        db,
        `INSERT INTO agents (name, scope, memory) VALUES (?, ?, CAST(? AS TEXT))
              ON CONFLICT (name) DO UPDATE SET scope = excluded.scope, memory = excluded.memory, updated_at = datetime('now')`,
        [loc.agent, loc.scope, encodeWtf8(memory)],
      );
    });
    return { location: `${this.paths.display(file.path)} (agents table, name=${sqlLiteral(loc.agent)})` };
  }

  async readMemory(loc: AgentLocation): Promise<string | undefined> {
    const file = await this.agentFile(loc, false);
    if (!file) return undefined;
    const m = await file.read((db) => queryValue(db, 'SELECT memory FROM agents WHERE name = ?', [loc.agent]));
    return m == null ? undefined : String(m);
  }

  async appendSegment(loc: AgentLocation, seg: Omit<Segment, 'number' | 'file'>): Promise<Segment> {
    const file = await this.agentFile(loc, true);
    // Numbering runs under the file lock, so two processes never compute the same number; UNIQUE backs it up.
    const number = await this.writeWithSchema(file, kindOf(loc), (db) => {
      execute(db, 'INSERT OR IGNORE INTO agents (name, scope) VALUES (?, ?)', [loc.agent, loc.scope]);
      const n = Number(
        queryValue(db, 'SELECT IFNULL(MAX(segment_number), 0) + 1 FROM agent_segments WHERE agent_name = ?', [
          loc.agent,
        ]),
      );
      execute(
        db,
        'INSERT INTO agent_segments (agent_name, segment_number, timestamp, prompt, summary) VALUES (?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT))',
        [loc.agent, n, seg.timestamp, encodeWtf8(seg.prompt), encodeWtf8(seg.summary)],
      );
      return n;
    });
    return { number, file: segmentFileName(loc.agent, number, this.decisions.segmentWidth), ...seg };
  }

  async listSegments(loc: AgentLocation): Promise<Segment[]> {
    const file = await this.agentFile(loc, false);
    if (!file) return [];
    const rows = await file.read((db) =>
      queryRows(
        db,
        'SELECT segment_number, timestamp, prompt, summary FROM agent_segments WHERE agent_name = ? ORDER BY segment_number',
        [loc.agent],
      ),
    );
    return rows.map((r) => ({
      number: Number(r.segment_number),
      file: segmentFileName(loc.agent, Number(r.segment_number), this.decisions.segmentWidth),
      timestamp: String(r.timestamp ?? ''),
      prompt: String(r.prompt ?? ''),
      summary: String(r.summary ?? ''),
    }));
  }

  storage(): StorageView {
    const { projectDir, homeDir } = this.paths;
    return {
      kind: 'sqlite',
      projectDir,
      homeDir,
      query: async (dbPath: string, sql: string, params: unknown[] = []): Promise<Row[]> => {
        const path = this.paths.fromDisplay(dbPath);
        if (!existsSync(path))
          throw new ProseError('E_NOT_FOUND', `no database ${dbPath}`, { location: { file: dbPath } });
        // Handles of their own: the view must never adopt (write) a file, as the store's handles may.
        let file = this.views.get(path);
        if (!file)
          this.views.set(path, (file = await SqliteFile.open(path, { validate: checkVersion, engine: this.engine })));
        return file.read((db) => queryRows(db, sql, params));
      },
    };
  }

  async close(): Promise<void> {
    const files = [...this.files.values()];
    this.files.clear();
    for (const v of this.views.values()) v.close();
    this.views.clear();
    for (const f of files) (await f.catch(() => undefined))?.close();
  }

  private toRecord(run: RunRef, row: BindingRow, dbFile: string): BindingRecord {
    if (row.attachment_path == null) return bindingFromRow(row, this.sql.kindColumn);
    const full = this.paths.attachmentFile(this.paths.runDir(run), String(row.attachment_path), dbFile);
    let value: string;
    try {
      value = decodeWtf8(readFileSync(full));
    } catch (err) {
      throw new ProseError('E_CORRUPT', `attachment ${row.attachment_path} of binding ${row.name} is missing`, {
        location: { file: this.paths.display(full) },
        cause: err,
      });
    }
    return { ...bindingFromRow(row, this.sql.kindColumn), value };
  }

  private async runFile(run: RunRef): Promise<SqliteFile> {
    const path = this.paths.runDb(run);
    if (!existsSync(path))
      throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, { location: { field: 'run' } });
    return this.file(path, 'run');
  }

  private async agentFile(loc: AgentLocation, create: true): Promise<SqliteFile>;
  private async agentFile(loc: AgentLocation, create: false): Promise<SqliteFile | undefined>;
  private async agentFile(loc: AgentLocation, create: boolean): Promise<SqliteFile | undefined> {
    if (loc.scope === 'execution') return this.runFile(loc.run!);
    const path = this.paths.agentDb(loc);
    if (!create && !existsSync(path)) return undefined;
    mkdirSync(dirname(path), { recursive: true });
    return this.file(path, 'agents');
  }

  /** A write that first gives a new (or still unmarked) database its edition's schema, in the same transaction. */
  private writeWithSchema<T>(file: SqliteFile, kind: DbKind, fn: (db: Database) => T): Promise<T> {
    return file.write((db) => {
      if (needsSchema(db)) ensureSchema(db, kind, file.path, this.edition);
      return fn(db);
    });
  }

  /** One handle per database file; a file that is ours in an older shape, or unmarked, is adopted once. */
  private file(path: string, kind: DbKind): Promise<SqliteFile> {
    let f = this.files.get(path);
    if (!f) {
      f = openAdopted(path, kind, this.engine, this.edition);
      this.files.set(path, f);
      f.catch(() => this.files.delete(path));
    }
    return f;
  }
}

const kindOf = (loc: AgentLocation): DbKind => (loc.scope === 'execution' ? 'run' : 'agents');

function readProgram(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}
