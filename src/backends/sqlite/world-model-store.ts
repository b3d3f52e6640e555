import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { RunRef } from '../../core/model.ts';
import type { WorldModelStore } from '../../core/store.ts';
import { canonicalJson } from '../../canon/canonical-json.ts';
import {
  RECEIPT_HASH_ALGORITHM,
  RECEIPT_JSON_FIELDS,
  RECEIPT_ROW_FIELDS,
  RECEIPT_SCHEMA,
} from '../../canon/receipt.ts';
import { receiptHash } from '../../canon/validate-receipt.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { execute, executeScript, queryRows, queryValue, type Database, type SqliteFile } from '../../sqlite/index.ts';

/**
 * sqlite.md's canonical tables, corrected (decision wm-sql-keys): versions keyed (node, version), the published
 * pointer per node, and receipt rows mapping one-to-one to the envelope plus its content_hash. The workspace is an
 * extension table (x_ prefix, as sqlite.md asks). Created on first use in the run's state.db.
 */
export const WORLD_MODEL_SQLITE_DDL = `
CREATE TABLE IF NOT EXISTS world_model_version (
    node TEXT NOT NULL,
    version TEXT NOT NULL,
    artifact BLOB NOT NULL,
    attachment_path TEXT,
    created_at TEXT DEFAULT (datetime('now')),
    PRIMARY KEY (node, version)
);
CREATE TABLE IF NOT EXISTS world_model_published (
    node TEXT PRIMARY KEY,
    version TEXT NOT NULL,
    FOREIGN KEY (node, version) REFERENCES world_model_version(node, version)
);
CREATE TABLE IF NOT EXISTS receipt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    node TEXT NOT NULL,
    contract_fingerprint TEXT NOT NULL,
    wake TEXT NOT NULL,
    input_fingerprints TEXT NOT NULL,
    fingerprints TEXT NOT NULL,
    semantic_diff TEXT NOT NULL DEFAULT '{}',
    prev TEXT,
    status TEXT NOT NULL CHECK (status IN ('rendered', 'skipped', 'failed')),
    cost TEXT NOT NULL,
    sig TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    created_at TEXT DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS receipt_node ON receipt(node, id);
CREATE TABLE IF NOT EXISTS x_world_model_workspace (
    node TEXT PRIMARY KEY,
    artifact BLOB NOT NULL
);
`;

/**
 * The current edition's canonical tables come with its Core Schema (src/sqlite/schema-current.ts, as the text writes
 * them); the store adds an index for the per-node chain read and the same x_ workspace table.
 */
const CURRENT_WORLD_MODEL_DDL = `
CREATE INDEX IF NOT EXISTS receipt_node ON receipt(node, id);
CREATE TABLE IF NOT EXISTS x_world_model_workspace (
    node TEXT PRIMARY KEY,
    artifact BLOB NOT NULL
);
`;

const RECEIPT_COLUMNS = [...RECEIPT_ROW_FIELDS, 'content_hash'];

/**
 * A receipt row back to its envelope (canonical JSON); schema and hash_algorithm are constants of the format. A row
 * without content_hash (the current text's table) gets the hash its fields make (decision sqlite-current-receipt).
 */
export function envelopeOfRow(row: Record<string, unknown>): string {
  const env: Record<string, unknown> = { schema: RECEIPT_SCHEMA, hash_algorithm: RECEIPT_HASH_ALGORITHM };
  for (const c of RECEIPT_ROW_FIELDS) {
    const v = row[c];
    env[c] = RECEIPT_JSON_FIELDS.includes(c) ? (typeof v === 'string' ? JSON.parse(v) : v) : v;
  }
  env.content_hash = 'content_hash' in row ? row.content_hash : receiptHash(env);
  return canonicalJson(env);
}

/** The columns of a receipt row from the envelope text: JSON columns hold canonical JSON. */
export function rowOfEnvelope(receiptJson: string, columns: readonly string[] = RECEIPT_COLUMNS): unknown[] {
  const env = JSON.parse(receiptJson) as Record<string, unknown>;
  return columns.map((c) => (RECEIPT_JSON_FIELDS.includes(c) ? canonicalJson(env[c]) : (env[c] ?? null)));
}

/**
 * What differs between the editions' canonical tables: v0's are ours (keyed (node, version), content_hash stored,
 * decision wm-sql-keys); the current text's world_model_version is keyed by the address alone and its receipt has no
 * content_hash (decisions sqlite-current-version-key, sqlite-current-receipt).
 */
interface WmSql {
  ddl: string;
  receiptColumns: readonly string[];
  insertVersion: string;
  /** node, address: the stored bytes of a version the node committed. */
  selectVersion: string;
  /** node, address: 1 when publishing the version to the node may go ahead. */
  countVersion: string;
  publish: string;
}

const WM_SQL: Record<Edition, WmSql> = {
  v0: {
    ddl: WORLD_MODEL_SQLITE_DDL,
    receiptColumns: RECEIPT_COLUMNS,
    insertVersion:
      'INSERT OR IGNORE INTO world_model_version (node, version, artifact) VALUES (:node, :version, :artifact)',
    selectVersion: 'SELECT artifact FROM world_model_version WHERE node = :node AND version = :version',
    countVersion: 'SELECT count(*) FROM world_model_version WHERE node = :node AND version = :version',
    publish:
      'INSERT INTO world_model_published (node, version) VALUES (:node, :version) ON CONFLICT (node) DO UPDATE SET version = excluded.version',
  },
  current: {
    ddl: CURRENT_WORLD_MODEL_DDL,
    receiptColumns: RECEIPT_ROW_FIELDS,
    // Two nodes committing the same bytes share the address's row; the row's node is the first, the ledger says the rest.
    insertVersion:
      'INSERT OR IGNORE INTO world_model_version (version, node, artifact) VALUES (:version, :node, :artifact)',
    selectVersion: `SELECT artifact FROM world_model_version v WHERE version = :version AND (node = :node OR EXISTS
      (SELECT 1 FROM receipt r WHERE r.node = :node AND json_extract(r.fingerprints, '$."@atomic"') = v.version))`,
    countVersion: 'SELECT count(*) FROM world_model_version WHERE version = :version',
    publish: `INSERT INTO world_model_published (node, version) VALUES (:node, :version)
      ON CONFLICT (node) DO UPDATE SET version = excluded.version, updated_at = datetime('now')`,
  },
};

/** The named parameters a statement uses: both engines refuse a name the statement does not have. */
function used(sql: string, params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => sql.includes(k)));
}

const hasTables = (db: Database): boolean =>
  queryValue(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'receipt'") === 1;

/**
 * The world-model store of the SQLite backend: tables in each run's state.db; the envelope as files beside it
 * (sqlite.md: "an optional compiled-intent.json, plus root.prose.md and sources/"), as on the filesystem.
 * `runFile` opens the run's database (E_NOT_FOUND for an unknown run); `runDir` names its directory.
 */
export class SqliteWorldModelStore implements WorldModelStore {
  constructor(
    private readonly runFile: (run: RunRef) => Promise<SqliteFile>,
    private readonly runDir: (run: RunRef) => string,
    edition: Edition = 'v0',
  ) {
    this.sql = WM_SQL[edition];
  }

  private readonly sql: WmSql;

  private async write<T>(run: RunRef, fn: (db: Database) => T): Promise<T> {
    return (await this.runFile(run)).write((db) => {
      executeScript(db, this.sql.ddl);
      return fn(db);
    });
  }

  private async read<T>(run: RunRef, empty: T, fn: (db: Database) => T): Promise<T> {
    return (await this.runFile(run)).read((db) => (hasTables(db) ? fn(db) : empty));
  }

  async writeVersion(run: RunRef, node: string, address: string, bytes: Uint8Array): Promise<void> {
    await this.write(run, (db) =>
      execute(db, this.sql.insertVersion, { ':node': node, ':version': address, ':artifact': bytes }),
    );
  }

  async readVersion(run: RunRef, node: string, address: string): Promise<Uint8Array | undefined> {
    return this.read(run, undefined, (db) => {
      const v = queryValue(db, this.sql.selectVersion, { ':node': node, ':version': address });
      return v instanceof Uint8Array ? v : v === undefined || v === null ? undefined : new Uint8Array(0);
    });
  }

  async publish(run: RunRef, node: string, address: string): Promise<void> {
    await this.write(run, (db) => {
      if (
        queryValue(db, this.sql.countVersion, used(this.sql.countVersion, { ':node': node, ':version': address })) !== 1
      ) {
        throw new ProseError('E_STATE', `version ${address} of ${node} is not stored; write it before publishing`);
      }
      execute(db, this.sql.publish, { ':node': node, ':version': address });
    });
  }

  async readPublished(run: RunRef, node: string): Promise<string | null> {
    return this.read(run, null, (db) => {
      const v = queryValue(db, 'SELECT version FROM world_model_published WHERE node = ?', [node]);
      return v === undefined || v === null ? null : String(v);
    });
  }

  async appendReceipt(run: RunRef, _node: string, receiptJson: string): Promise<void> {
    const cols = this.sql.receiptColumns;
    const values = rowOfEnvelope(receiptJson, cols);
    await this.write(run, (db) =>
      execute(
        db,
        `INSERT INTO receipt (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        values as never,
      ),
    );
  }

  async readReceipts(run: RunRef, node?: string): Promise<string[]> {
    return this.read(run, [] as string[], (db) => {
      const sql = `SELECT ${this.sql.receiptColumns.join(', ')} FROM receipt ${node === undefined ? '' : 'WHERE node = ?'} ORDER BY id`;
      return queryRows(db, sql, node === undefined ? [] : [node]).map(envelopeOfRow);
    });
  }

  async writeWorkspace(run: RunRef, node: string, bytes: Uint8Array): Promise<void> {
    await this.write(run, (db) =>
      execute(db, 'INSERT OR REPLACE INTO x_world_model_workspace (node, artifact) VALUES (?, ?)', [node, bytes]),
    );
  }

  async writeEnvelope(
    run: RunRef,
    env: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> },
  ): Promise<void> {
    await this.runFile(run);
    const dir = this.runDir(run);
    for (const [path, text] of Object.entries(env.sources))
      writeFileAtomic(join(dir, 'sources', ...path.split('/')), text);
    writeFileAtomic(join(dir, 'root.prose.md'), env.rootSource);
    writeFileAtomic(join(dir, 'compiled-intent.json'), `${env.compiledIntentJson}\n`);
  }

  async readEnvelope(
    run: RunRef,
  ): Promise<{ compiledIntentJson: string; rootSource: string; sources: Record<string, string> } | undefined> {
    await this.runFile(run);
    const dir = this.runDir(run);
    if (!existsSync(join(dir, 'compiled-intent.json'))) return undefined;
    const sources: Record<string, string> = {};
    const walk = (d: string, prefix: string) => {
      if (!existsSync(d)) return;
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p, `${prefix}${name}/`);
        else sources[`${prefix}${name}`] = readFileSync(p, 'utf8');
      }
    };
    walk(join(dir, 'sources'), '');
    return {
      compiledIntentJson: readFileSync(join(dir, 'compiled-intent.json'), 'utf8').replace(/\n$/, ''),
      rootSource: readFileSync(join(dir, 'root.prose.md'), 'utf8'),
      sources,
    };
  }
}
