import type { CliIo } from '../../../src/cli/io.ts';

/** A CliIo writing into strings, for running a command in-process. */
export function captureIo(
  cwd: string,
  env: Record<string, string | undefined> = {},
): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: {
      write: (c: string) => {
        out += c;
        return true;
      },
    },
    stderr: {
      write: (c: string) => {
        err += c;
        return true;
      },
    },
    env,
    cwd,
    out: () => out,
    err: () => err,
  };
}
