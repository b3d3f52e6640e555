/** A CliIo that keeps what a command prints, for in-process command specs. */
export function cliIo(cwd: string) {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (s: string | Uint8Array) => void (out.stdout += String(s)) },
    stderr: { write: (s: string) => void (out.stderr += s) },
    env: {},
    cwd,
  };
  return { io, out };
}
