/**
 * Every error the toolkit raises carries a stable code, a location and a hint.
 * Tests assert on codes, never on message text. ERROR_CODES below lists each code with its meaning.
 */
export const ERROR_CODES = {
  // Contract errors: a backend answers these to an operation, and cases expect them by code.
  E_NOT_FOUND: 'the named binding, run, agent, frame or version does not exist',
  E_CONST_REBIND: 'a const binding cannot be bound again',
  E_INVALID_NAME: 'a name is empty, too long, or could escape its directory',
  E_INVALID_ARGUMENT: 'an argument has the wrong type or an impossible value',
  E_ROLE: 'this actor may not make this call (the seed says who writes what)',
  E_RECURSION_LIMIT: 'a block invocation went deeper than its max_depth',
  E_LOOP_MAX: 'a loop iteration went past its max',
  E_RETRY_MAX: 'a retry attempt went past its max',
  E_STATE: 'the call does not fit the current state (unknown frame, loop not started, ...)',
  E_UNSUPPORTED: 'the backend does not declare the capability this call needs',
  E_CONFLICT: 'a write collided with another (for example an id already taken)',
  E_CORRUPT: 'stored state could not be read back (torn, truncated, or not ours)',
  E_FORMAT: 'bytes or text do not follow the format (OPWM1, receipt, binding file, ...)',
  // Harness and usage errors: raised by the toolkit itself.
  E_USAGE: 'the command line is wrong',
  E_CASE: 'a conformance case file is malformed',
  E_PLUGIN: 'a third-party backend broke the plugin protocol',
  E_BACKEND: 'a backend failed in a way that is not a contract answer',
  E_IO: 'reading or writing the file system failed',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  /** A field path such as `steps[3].args.name`, a table and row, or a receipt index. */
  field?: string;
}

export class ProseError extends Error {
  readonly code: ErrorCode;
  readonly location?: ErrorLocation;
  readonly hint?: string;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { location?: ErrorLocation; hint?: string; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ProseError';
    this.code = code;
    this.location = opts.location;
    this.hint = opts.hint;
  }

  toJSON(): SerializedError {
    return serializeError(this);
  }
}

export interface SerializedError {
  code: ErrorCode;
  message: string;
  location?: ErrorLocation;
  hint?: string;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

export function serializeError(err: ProseError): SerializedError {
  const out: SerializedError = { code: err.code, message: err.message };
  if (err.location) out.location = err.location;
  if (err.hint) out.hint = err.hint;
  return out;
}

/** Turns anything thrown into a ProseError, keeping codes of errors that already have one. */
export function toProseError(err: unknown, fallback: ErrorCode = 'E_BACKEND'): ProseError {
  if (err instanceof ProseError) return err;
  if (err && typeof err === 'object' && isErrorCode((err as { code?: unknown }).code)) {
    const e = err as { code: ErrorCode; message?: string; hint?: string; location?: ErrorLocation };
    return new ProseError(e.code, String(e.message ?? e.code), { hint: e.hint, location: e.location });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ProseError(fallback, message, { cause: err });
}

/** `file:line:column` when known, for messages. */
export function formatLocation(loc: ErrorLocation | undefined): string {
  if (!loc) return '';
  const parts: string[] = [];
  if (loc.file) parts.push(loc.line ? `${loc.file}:${loc.line}${loc.column ? `:${loc.column}` : ''}` : loc.file);
  if (loc.field) parts.push(loc.field);
  return parts.join(' ');
}

export function formatError(err: ProseError): string {
  const where = formatLocation(err.location);
  return `${err.code}${where ? ` at ${where}` : ''}: ${err.message}${err.hint ? `\n  hint: ${err.hint}` : ''}`;
}
