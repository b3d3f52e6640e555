import { ProseError } from '../../core/errors.ts';
import type { RunRef } from '../../core/model.ts';
import type { PgDb } from './pg-db.ts';
import type { RowWatch } from './mem-row-watch.ts';
import {
  EXTENSION_PG_DDL,
  hexOf,
  PostgresWorldModelStore,
  RECEIPT_COLUMNS,
  receiptOfRow,
  toBytes,
} from './world-model-store.ts';

/**
 * The current edition's canonical store (ddl-current.ts): postgres.md keys world_model_version by its content address
 * and world_model_published by node, with no run in either, so versions and the published pointer belong to the
 * database, not to a run, and a node's receipts form one chain across runs (as the filesystem's durable
 * state/world-model/{node}/ does, decision current-durable-store). A run's receipts are its rows of that chain.
 * Versions are keyed (node, version) (decision pg-current-version-key); run_id on a version names the run that
 * stored it first.
 */
export class DurableWorldModelStore extends PostgresWorldModelStore {
  /** `extraDdl`: run after our extension tables, on first use (the pg-mem factory's lookup indexes). */
  constructor(db: PgDb, watch?: RowWatch, extraDdl: readonly string[] = []) {
    super(db, [...EXTENSION_PG_DDL, ...extraDdl], watch);
  }

  override async writeVersion(run: RunRef, node: string, address: string, bytes: Uint8Array): Promise<void> {
    await this.q(
      `INSERT INTO openprose.world_model_version (version, node, artifact, run_id)
      VALUES ($1, $2, decode($3, 'hex'), $4)
      ON CONFLICT (node, version) DO NOTHING`,
      [address, node, hexOf(bytes), run],
    );
  }

  override async readVersion(_run: RunRef, node: string, address: string): Promise<Uint8Array | undefined> {
    const [row] = await this.q<{ artifact: unknown }>(
      `SELECT artifact FROM openprose.world_model_version WHERE node = $1 AND version = $2`,
      [node, address],
    );
    return row ? toBytes(row.artifact) : undefined;
  }

  override async publish(run: RunRef, node: string, address: string): Promise<void> {
    if (!(await this.readVersion(run, node, address)))
      throw new ProseError('E_STATE', `version ${address} of ${node} is not stored; write it before publishing`);
    await this.q(
      `INSERT INTO openprose.world_model_published (node, version) VALUES ($1, $2)
      ON CONFLICT (node) DO UPDATE SET version = excluded.version, updated_at = now()`,
      [node, address],
    );
  }

  /** The node's published version, whichever run published it. */
  override async readPublished(_run: RunRef, node: string): Promise<string | null> {
    const [row] = await this.q<{ version: string }>(
      `SELECT version FROM openprose.world_model_published WHERE node = $1`,
      [node],
    );
    return row ? String(row.version) : null;
  }

  /** The node's last receipt in any run: the next one chains to it. */
  async readChainHead(_run: RunRef, node: string): Promise<string | undefined> {
    const [row] = await this.q<Record<string, unknown>>(
      `SELECT ${RECEIPT_COLUMNS.join(', ')} FROM openprose.receipt WHERE node = $1 ORDER BY id DESC LIMIT 1`,
      [node],
    );
    return row ? receiptOfRow(row) : undefined;
  }
}
