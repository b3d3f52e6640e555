/**
 * Every error the toolkit raises carries a stable code, a location and a hint.
 * Tests assert on codes, never on message text. ERROR_CODES below lists each code with its meaning.
 */
export declare const ERROR_CODES: {
    readonly E_NOT_FOUND: "the named binding, run, agent, frame or version does not exist";
    readonly E_CONST_REBIND: "a const binding cannot be bound again";
    readonly E_INVALID_NAME: "a name is empty, too long, or could escape its directory";
    readonly E_INVALID_ARGUMENT: "an argument has the wrong type or an impossible value";
    readonly E_ROLE: "this actor may not make this call (the seed says who writes what)";
    readonly E_RECURSION_LIMIT: "a block invocation went deeper than its max_depth";
    readonly E_LOOP_MAX: "a loop iteration went past its max";
    readonly E_RETRY_MAX: "a retry attempt went past its max";
    readonly E_STATE: "the call does not fit the current state (unknown frame, loop not started, ...)";
    readonly E_UNSUPPORTED: "the backend does not declare the capability this call needs";
    readonly E_CONFLICT: "a write collided with another (for example an id already taken)";
    readonly E_CORRUPT: "stored state could not be read back (torn, truncated, or not ours)";
    readonly E_FORMAT: "bytes or text do not follow the format (OPWM1, receipt, binding file, ...)";
    readonly E_USAGE: "the command line is wrong";
    readonly E_CASE: "a conformance case file is malformed";
    readonly E_PLUGIN: "a third-party backend broke the plugin protocol";
    readonly E_BACKEND: "a backend failed in a way that is not a contract answer";
    readonly E_IO: "reading or writing the file system failed";
};
export type ErrorCode = keyof typeof ERROR_CODES;
export interface ErrorLocation {
    file?: string;
    line?: number;
    column?: number;
    /** A field path such as `steps[3].args.name`, a table and row, or a receipt index. */
    field?: string;
}
export declare class ProseError extends Error {
    readonly code: ErrorCode;
    readonly location?: ErrorLocation;
    readonly hint?: string;
    constructor(code: ErrorCode, message: string, opts?: {
        location?: ErrorLocation;
        hint?: string;
        cause?: unknown;
    });
    toJSON(): SerializedError;
}
export interface SerializedError {
    code: ErrorCode;
    message: string;
    location?: ErrorLocation;
    hint?: string;
}
export declare function isErrorCode(value: unknown): value is ErrorCode;
export declare function serializeError(err: ProseError): SerializedError;
/** Turns anything thrown into a ProseError, keeping codes of errors that already have one. */
export declare function toProseError(err: unknown, fallback?: ErrorCode): ProseError;
/** `file:line:column` when known, for messages. */
export declare function formatLocation(loc: ErrorLocation | undefined): string;
export declare function formatError(err: ProseError): string;
