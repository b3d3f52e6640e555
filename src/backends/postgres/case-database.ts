import { createHash } from 'node:crypto';
import pg from 'pg';
import { ProseError } from '../../core/errors.ts';
import { toPgError } from './pg-error.ts';

/**
 * Isolation on a real server: every conformance case gets its own database, named after its storage key, and
 * holds schema openprose inside it (docs/decisions.md `pg-isolation`). Created on first open, kept across
 * restarts, dropped by dispose.
 */
export function caseDatabaseName(storageKey: string): string {
  return `prose_case_${createHash('sha256').update(storageKey).digest('hex').slice(0, 24)}`;
}

/** The URL with its database replaced. Refuses anything that is not a postgres URL, without echoing it. */
export function withDatabase(url: string, database: string): string {
  const u = parseUrl(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function parseUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw badUrl();
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') throw badUrl();
  return u;
}

const badUrl = () =>
  new ProseError(
    'E_USAGE',
    'the PostgreSQL connection URL is not a postgresql://user@host:port/database URL (its value is not shown)',
    {
      hint: 'set OPENPROSE_POSTGRES_URL=postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE',
    },
  );

/** A short-lived connection to the URL's own database, for CREATE/DROP DATABASE. */
async function withAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw toPgError(err, url);
  }
  try {
    return await fn(client);
  } catch (err) {
    throw toPgError(err, url);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates the case database when it does not exist yet. Answers true when this call created it. */
export async function createCaseDatabase(url: string, name: string): Promise<boolean> {
  return withAdmin(url, async (c) => {
    const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return true;
    } catch (err) {
      // Another process opening the same case created it first.
      const code = (err as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw err;
    }
  });
}

export async function dropCaseDatabase(url: string, name: string): Promise<void> {
  await withAdmin(url, async (c) => {
    try {
      // FORCE ends connections a crashed case left open (PostgreSQL 13+).
      await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    } catch (err) {
      if ((err as { code?: string }).code !== '42601') throw err;
      await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`);
    }
  });
}
