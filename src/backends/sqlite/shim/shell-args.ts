import type { OutputMode } from './run-sql.ts';

/** The sqlite3 command line the shim understands: `sqlite3 [OPTIONS] DB [SQL ...]`, options anywhere, as the CLI. */
export interface ShellArgs {
  db?: string;
  /** `-cmd` arguments, run before the SQL arguments. */
  cmds: string[];
  sql: string[];
  mode: OutputMode;
  header: boolean;
  separator: string;
  help: boolean;
}

export type ParsedShellArgs = { ok: true; args: ShellArgs } | { ok: false; message: string };

const FLAGS: Record<string, (a: ShellArgs) => void> = {
  json: (a) => {
    a.mode = 'json';
  },
  list: (a) => {
    a.mode = 'list';
  },
  header: (a) => {
    a.header = true;
  },
  noheader: (a) => {
    a.header = false;
  },
  help: (a) => {
    a.help = true;
  },
  // Accepted and without effect here, as the shim never prompts.
  batch: () => {},
  bail: () => {},
  interactive: () => {},
};

export function parseShellArgs(argv: readonly string[]): ParsedShellArgs {
  const a: ShellArgs = { cmds: [], sql: [], mode: 'list', header: false, separator: '|', help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('-') && arg.length > 1) {
      const name = arg.replace(/^--?/, '');
      if (name === 'cmd' || name === 'separator') {
        const value = argv[++i];
        if (value === undefined) return { ok: false, message: `sqlite3: Error: missing argument to ${arg}\n` };
        if (name === 'cmd') a.cmds.push(value);
        else a.separator = value;
        continue;
      }
      const flag = FLAGS[name];
      if (!flag)
        return { ok: false, message: `sqlite3: Error: unknown option: ${arg}\nUse -help for a list of options.\n` };
      flag(a);
      continue;
    }
    if (a.db === undefined) a.db = arg;
    else a.sql.push(arg);
  }
  return { ok: true, args: a };
}
