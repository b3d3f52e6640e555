import type { BackendFactory } from '../core/backend.ts';
import type { Capability } from '../core/capabilities.ts';

/** The plugin's answer to `hello`, exactly as handshaken. */
export interface PluginHello {
  type: 'hello';
  seq: number;
  protocol: number;
  name: string;
  kind: BackendFactory['kind'];
  capabilities: Capability[];
  description?: string;
}

export type PluginReply =
  | PluginHello
  | { type: 'result'; seq: number; result: Record<string, unknown> }
  | {
      type: 'error';
      seq: number;
      code: string;
      message: string;
      hint?: string;
      location?: { field?: string; file?: string; line?: number; column?: number };
    };

export type RequestType = 'hello' | 'open' | 'call' | 'close';

export interface ExecOptions {
  /** How long one request may wait for its reply (default 10 s). */
  timeoutMs?: number;
  /** How long a new process may take to answer hello (default: the larger of timeoutMs and 10 s; a loaded machine starts processes slowly). */
  startTimeoutMs?: number;
  /** How long a plugin may take to exit after `close` or the end of its input before it is killed (default 2 s). */
  exitGraceMs?: number;
  /** Longest stdout line accepted, in bytes (default 64 MiB): more without a newline is E_PLUGIN. */
  maxLineBytes?: number;
  /** Bytes of stderr kept for error reports (default 8 KiB). */
  stderrBytes?: number;
  /** The prose-state version sent in `hello` (the CLI passes its VERSION; src/plugin cannot import it). */
  suite?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Sees every protocol line exactly as written: `sent` to the plugin's stdin, `received` from its stdout (--explain). */
  wire?: (direction: 'sent' | 'received', line: string) => void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_EXIT_GRACE_MS = 2_000;
