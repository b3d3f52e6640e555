import { ProseError } from '../../core/errors.ts';
import { redact } from './redact.ts';

/** A failed query or connection, as a ProseError that keeps the SQLSTATE so callers can react to 23505 and such. */
export class PgError extends ProseError {
  readonly sqlState?: string;
  constructor(message: string, opts: { sqlState?: string; hint?: string; code?: 'E_BACKEND' | 'E_CONFLICT' } = {}) {
    super(opts.code ?? 'E_BACKEND', message, { hint: opts.hint });
    this.sqlState = opts.sqlState;
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);
const SCRIPT_HINT = 'for a throwaway local server, run the command under scripts/with-postgres.sh';

/**
 * Turns whatever pg or pg-mem threw into a PgError with a message that says what to do. The URL and its password
 * are removed from the text; only the first line of pg-mem's long diagnostics is kept; the original error is not
 * kept as `cause`, because pg's errors can carry the connection settings.
 */
export function toPgError(err: unknown, url?: string): PgError {
  if (err instanceof PgError) return err;
  if (err instanceof ProseError) return new PgError(redact(err.message, url), { hint: err.hint });
  const e = (err ?? {}) as { code?: unknown; message?: unknown; errors?: unknown[] };
  // Node's AggregateError (IPv4 and IPv6 both refused) keeps the codes in `errors`.
  const code = typeof e.code === 'string' ? e.code : firstCode(e.errors);
  const first = String(e.message ?? err)
    .split('\n')[0]!
    .trim();
  const text = redact(first, url);
  if (
    (code && UNREACHABLE.has(code)) ||
    /timeout expired|Connection terminated due to connection timeout/i.test(first)
  ) {
    return new PgError(`cannot reach the PostgreSQL server named by the connection URL (${code ?? 'timeout'})`, {
      sqlState: code,
      hint: `start the server, or fix the host and port in OPENPROSE_POSTGRES_URL; ${SCRIPT_HINT}`,
    });
  }
  if (code === '28P01' || code === '28000') {
    return new PgError(`the PostgreSQL server refused the credentials of the connection URL: ${text}`, {
      sqlState: code,
      hint: 'check the user and password in OPENPROSE_POSTGRES_URL (its value is never printed)',
    });
  }
  if (code === '3D000') {
    return new PgError(`the database named in the connection URL does not exist: ${text}`, {
      sqlState: code,
      hint: 'create it (createdb NAME) or point OPENPROSE_POSTGRES_URL at an existing database',
    });
  }
  if (code === '42501') {
    return new PgError(`the PostgreSQL role lacks a privilege: ${text}`, {
      sqlState: code,
      hint: 'the role needs CREATEDB (each conformance case gets a fresh database) and rights on schema openprose',
    });
  }
  if (code === '23505')
    return new PgError(`a write collided with a stored row: ${text}`, { sqlState: code, code: 'E_CONFLICT' });
  return new PgError(`PostgreSQL error: ${text}`, { sqlState: typeof code === 'string' ? code : undefined });
}

function firstCode(errors: unknown[] | undefined): string | undefined {
  for (const x of errors ?? []) {
    const c = (x as { code?: unknown })?.code;
    if (typeof c === 'string') return c;
  }
  return undefined;
}
