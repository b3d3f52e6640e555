import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  SqliteFile,
  loadSqlite,
  wasmDatabase,
  wasmSqlEngine,
  type Database,
  type Sqlite3Static,
} from '../../sqlite/index.ts';
import { isReadOnlySql, runSql, type RunSqlOptions } from '../../backends/sqlite/shim/run-sql.ts';
import { parseShellArgs, type ShellArgs } from '../../backends/sqlite/shim/shell-args.ts';
import { ProseError } from '../../core/errors.ts';
import { EXIT, type CliIo, type Command } from '../io.ts';

/** The sqlite3 CLI's own exit codes, which the shim answers with (not the EXIT codes of prose-state's commands). */
const SQLITE3_EXIT = { ok: 0, error: 1, busy: 5, notADatabase: 26 } as const;

/** Without `.timeout` the shim still waits this long for the lock: the CLI's default of 0 is what loses writes. */
export const SHIM_DEFAULT_TIMEOUT_MS = 10_000;

const HELP = `Usage: prose-state sqlite3 [-json|-list] [-header] [-separator SEP] [-cmd ".timeout MS"] DB [SQL ...]

A stand-in for the sqlite3 CLI on WASM SQLite, for machines without it. Runs each SQL argument (several statements
each) against DB, printing what sqlite3 3.40 prints: list mode ('|'-separated) or -json, the same error text on
stderr and the same exit code. Writes take the backend's lock file (waiting up to .timeout ms, default
${SHIM_DEFAULT_TIMEOUT_MS}) and commit their pages in place behind a rollback journal, as sqlite3 does.
Dot commands: .timeout MS. Invoked through a link named sqlite3, the binary behaves as this command.
`;

export const sqlite3Command: Command = {
  help: HELP,
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseShellArgs(argv);
    if (!parsed.ok) {
      io.stderr.write(parsed.message);
      return EXIT.failed;
    }
    const args = parsed.args;
    if (args.help) {
      io.stdout.write(HELP);
      return EXIT.ok;
    }
    if (args.db === undefined) {
      io.stderr.write('prose-state sqlite3: give a database file (the shim has no interactive mode)\n');
      return EXIT.usage;
    }
    if (args.sql.length === 0 && io.stdin) args.sql.push(await io.stdin());
    const sqlite3 = await loadSqlite();
    // Dot commands take effect before the SQL runs, as every -cmd does in the CLI; their errors keep their place.
    const state = { timeoutMs: SHIM_DEFAULT_TIMEOUT_MS };
    const steps: Step[] = [];
    for (const text of [...args.cmds, ...args.sql]) {
      if (!text.trimStart().startsWith('.')) steps.push({ sql: text });
      else if (!dotCommand(text.trim(), state))
        steps.push({
          error: `Error: unknown command or invalid arguments:  "${text.trim().slice(1).split(/\s+/)[0]}". Enter ".help" for help\n`,
        });
    }
    return runAll(sqlite3, resolve(io.cwd, args.db), steps, args, state.timeoutMs, io);
  },
};

type Step = { sql: string } | { error: string };

function dotCommand(line: string, state: { timeoutMs: number }): boolean {
  const [cmd, ...rest] = line.slice(1).split(/\s+/);
  if (cmd !== 'timeout' || rest.length > 1) return false;
  // Like the CLI, a non-number reads as 0.
  state.timeoutMs = Math.max(0, Number.parseInt(rest[0] ?? '0', 10) || 0);
  return true;
}

/**
 * All SQL arguments run on one connection, as in the CLI (a BEGIN in one argument is still open in the next), and
 * under one lock when any of them writes; whatever is left uncommitted at the end is rolled back.
 */
async function runAll(
  sqlite3: Sqlite3Static,
  path: string,
  steps: Step[],
  args: ShellArgs,
  timeoutMs: number,
  io: CliIo,
): Promise<number> {
  let out = '';
  const opts: RunSqlOptions = {
    mode: args.mode,
    header: args.header,
    separator: args.separator,
    out: (t) => {
      out += t;
    },
  };
  // WASM SQLite for the CLI's exact messages and error offsets (prepare_v3 tails): posix where native is the default.
  const file = await SqliteFile.open(path, { timeoutMs, engine: wasmSqlEngine() });
  const session = (db: Database): { stderr: string; code: number } => {
    out = ''; // a read is tried again when a native sqlite3 held the file: print only the last try
    for (const step of steps) {
      if ('error' in step) return { stderr: step.error, code: SQLITE3_EXIT.error };
      const failure = runSql(sqlite3, wasmDatabase(db), step.sql, opts);
      if (failure) return { stderr: `Error: ${failure.message}\n`, code: failure.exitCode };
    }
    return { stderr: '', code: SQLITE3_EXIT.ok };
  };
  try {
    // Like the CLI, opening a missing file creates it empty; reads then need no lock.
    if (!existsSync(path)) writeFileSync(path, '', { flag: 'wx' });
    const readOnly = await file.read((db) =>
      steps.every((s) => 'error' in s || isReadOnlySql(sqlite3, wasmDatabase(db), s.sql)),
    );
    const result = readOnly ? await file.read(session) : await file.write(session, { transaction: false });
    io.stdout.write(out);
    io.stderr.write(result.stderr);
    return result.code;
  } catch (err) {
    io.stdout.write(out);
    if (!(err instanceof ProseError)) throw err;
    // The CLI's codes for the same situations: SQLITE_BUSY for the lock, SQLITE_NOTADB for a bad file.
    const code =
      err.code === 'E_CONFLICT'
        ? SQLITE3_EXIT.busy
        : err.code === 'E_CORRUPT' || err.code === 'E_FORMAT'
          ? SQLITE3_EXIT.notADatabase
          : SQLITE3_EXIT.error;
    io.stderr.write(`Error: ${err.message}${err.hint ? `\n  hint: ${err.hint}` : ''}\n`);
    return code;
  } finally {
    file.close();
  }
}
