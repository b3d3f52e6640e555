import type { SuiteCache } from '../conformance/suite-cache.ts';

/** What a command gets instead of `process`: so every command is testable in-process. */
export interface CliIo {
  stdout: { write(chunk: string | Uint8Array): unknown };
  stderr: { write(chunk: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  /** argv that starts this same CLI in a child process (for worker processes). */
  self?: readonly string[];
  /**
   * Where parsed suites are kept (src/conformance/suite-cache.ts): the single binary's entry gives its own, or `false`
   * when it has none; absent, a checkout keeps them inside itself (src/cli/suite-cache-for.ts).
   */
  suiteCache?: SuiteCache | false;
  /** Text piped on standard input, when a command reads it. */
  stdin?: () => Promise<string>;
}

/** Exit codes, named (craft: 0 pass, 1 conformance failures or findings, 2 usage, 3 harness/infrastructure). */
export const EXIT = { ok: 0, failed: 1, usage: 2, harness: 3 } as const;
/** What a command module exports: loaded only when its command runs. */
export interface Command {
  /** Full `--help` text. */
  help: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

/**
 * A line of the command table: name and summary are here so `--version` and the usage text load no command module
 * (each pulls in backends, WASM loaders or parsers that cost startup time).
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}
