import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ProseError } from '../core/errors.ts';
import {
  BEGIN_COMMAND,
  BEGIN_FILE,
  BEGIN_RETURN,
  END_BRANCH,
  END_COMMAND,
  END_FILE,
  END_RETURN,
  PLACEHOLDER,
} from './instruction-text.ts';
import type { SubagentStorageKind } from '../core/backend.ts';
import { shSq, sqlLit } from './shell-quote.ts';

/** What a scripted subagent produces: its output and, as a persistent agent, its memory and segment summary. */
export interface SubagentWork {
  value: string;
  summary: string;
  memory?: string;
  segmentSummary?: string;
  timestamp?: string;
  /** Follow the small-output section whatever the size (a subagent that ignores the large-output procedure). */
  ignoreLargeOutput?: boolean;
}

export interface FollowOptions {
  storage: SubagentStorageKind;
  /** The directory the subagent works in: relative paths in the instructions are relative to it. */
  projectDir: string;
  /** Where `~/` in the instructions points (user-scope agents). */
  homeDir: string;
  /** argv that starts prose-state, for instructions that say `prose-state sqlite3` on a machine without sqlite3. */
  self?: readonly string[];
  /** postgres: runs a script on the subagent's connection, as psql would send it. */
  pgRun?: (script: string) => Promise<void>;
  env?: Record<string, string | undefined>;
  /** The platform the commands run on (default: this process's); specs pass win32 to see the refusal. */
  platform?: NodeJS.Platform;
  timeoutMs?: number;
}

const DEFAULT_TIMESTAMP = '2026-01-16T14:30:52Z';

/**
 * A subagent that follows printed instructions literally (session.md 6-7): it writes exactly the files shown,
 * runs exactly the commands shown with its text in the placeholders, and returns exactly the lines it was told
 * to. Nothing is inferred from the backend; if the instructions are wrong, what it writes is wrong.
 */
export async function followInstructions(instructions: string, w: SubagentWork, o: FollowOptions): Promise<string> {
  const text = chooseBranch(instructions, w);
  writeOutputFiles(text, o, w);
  if (o.storage === 'directory') followFiles(text, o, w);
  else if (o.storage === 'sqlite') await runShellCommands(text, w, o);
  else await runPsqlScripts(text, w, o);
  return returnMessage(text, w);
}

/** One size-conditional section of the instructions (instruction-text.ts BEGIN_SMALL / BEGIN_LARGE ... END_BRANCH). */
const BRANCH = new RegExp(
  `^----- BEGIN IF YOUR OUTPUT IS (AT MOST|MORE THAN) (\\d+) BYTES -----\n([\\s\\S]*?)^${END_BRANCH}\n`,
  'gm',
);

/** Keeps the section whose size condition the output meets, without its markers, and drops the other. */
export function chooseBranch(text: string, w: SubagentWork): string {
  const bytes = Buffer.byteLength(w.value, 'utf8');
  return text.replace(BRANCH, (_, cond: string, n: string, body: string) =>
    (cond === 'AT MOST') === (w.ignoreLargeOutput === true || bytes <= Number(n)) ? body : '',
  );
}

/** "First write your output to:" (the large-output procedure): the output alone, verbatim, on every storage. */
function writeOutputFiles(text: string, o: FollowOptions, w: SubagentWork): void {
  const at = text.indexOf('First write your output to:\n');
  if (at === -1) return;
  const body = blocks(text.slice(at), BEGIN_FILE, END_FILE)[0]!;
  write(
    o,
    after(text.slice(at), 'First write your output to:')!,
    body.replace(PLACEHOLDER.value, () => w.value),
  );
}

const bytesOf = (w: SubagentWork) => String(Buffer.byteLength(w.value, 'utf8'));

/** The text between each pair of markers, in order. */
export function blocks(text: string, begin: string, end: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const a = text.indexOf(`${begin}\n`, i);
    if (a === -1) return out;
    const b = text.indexOf(`\n${end}`, a);
    if (b === -1) throw new ProseError('E_FORMAT', `instructions: "${begin}" without "${end}"`);
    out.push(text.slice(a + begin.length + 1, b));
    i = b + end.length;
  }
}

/** The confirmation, built exactly as instructed. */
export function returnMessage(text: string, w: SubagentWork): string {
  const ret = blocks(text, BEGIN_RETURN, END_RETURN)[0];
  if (ret === undefined) throw new ProseError('E_FORMAT', 'instructions: no block of lines to return');
  return ret.replace(PLACEHOLDER.returnSummary, () => w.summary) + '\n';
}

const after = (text: string, label: string): string | undefined => new RegExp(`${label}\\n  (.+)`).exec(text)?.[1];

function followFiles(text: string, o: FollowOptions, w: SubagentWork): void {
  const files = blocks(text, BEGIN_FILE, END_FILE);
  let k = 0;
  if (text.includes('First write your output to:\n')) k++; // the attachment, written already
  const bindingPath =
    after(text, 'When you complete this task, write your output to:') ?? after(text, 'Then write the binding file to:');
  if (bindingPath)
    write(o, bindingPath, files[k++]!.replace(PLACEHOLDER.value, () => w.value).replace(PLACEHOLDER.bytes, bytesOf(w)));
  const memPath = after(text, 'Your memory is at:');
  if (!memPath) return;
  k++; // the memory template: the agent writes its own memory in that structure
  write(o, memPath, w.memory ?? '');
  const seg = files[k]!.replace(PLACEHOLDER.timestamp, w.timestamp ?? DEFAULT_TIMESTAMP);
  // The template's summary lines are the structure; the agent's own summary replaces them.
  write(
    o,
    after(text, 'segment record to:')!,
    seg.slice(0, seg.indexOf('## Summary\n\n') + 12) + (w.segmentSummary ?? ''),
  );
}

function write(o: FollowOptions, path: string, content: string): void {
  const abs = path.startsWith('~/') ? join(o.homeDir, path.slice(2)) : resolve(o.projectDir, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

/** The sqlite rule stated in the instructions: SQL string (double ') inside shell double quotes (\ $ ` " escaped). */
const sqliteText = (s: string) => s.replaceAll("'", "''").replace(/[\\$`"]/g, '\\$&');
/** The psql rule: the text sits in shell single quotes, each ' written '\''. */
const psqlText = (s: string) => s.replaceAll("'", `'\\''`);

function fill(cmd: string, w: SubagentWork, esc: (s: string) => string): string {
  // Replacer functions: a replacement string would read $& or $' in the text as patterns.
  return cmd
    .replaceAll(PLACEHOLDER.bytes, () => bytesOf(w))
    .replaceAll(PLACEHOLDER.sqlValue, () => esc(w.value))
    .replaceAll(PLACEHOLDER.memory, () => esc(w.memory ?? ''))
    .replaceAll(PLACEHOLDER.summary, () => esc(w.segmentSummary ?? ''))
    .replaceAll(PLACEHOLDER.timestamp, () => w.timestamp ?? DEFAULT_TIMESTAMP);
}

async function runShellCommands(text: string, w: SubagentWork, o: FollowOptions): Promise<void> {
  if ((o.platform ?? process.platform) === 'win32')
    throw new ProseError(
      'E_UNSUPPORTED',
      "the sqlite instructions' commands are POSIX sh lines; Windows has no /bin/sh",
      {
        hint: 'run the scripted subagent where /bin/sh exists (decisions platform-subagent-shell)',
      },
    );
  const bin = o.self ? shimBinDir(o.self) : undefined;
  const base = o.env ?? process.env;
  // HOME makes the ~/ of user-scope paths the home directory the instructions were built for.
  const env = { ...base, HOME: o.homeDir, ...(bin ? { PATH: `${bin}${delimiter}${base.PATH ?? ''}` } : {}) };
  try {
    for (const cmd of blocks(text, BEGIN_COMMAND, END_COMMAND).join('\n').split('\n')) {
      await sh(fill(cmd, w, sqliteText), o.projectDir, env, o.timeoutMs ?? 30_000);
    }
  } finally {
    if (bin) rmSync(bin, { recursive: true, force: true });
  }
}

/** A directory with a `prose-state` program that runs `self`, so `prose-state sqlite3 ...` works as written. */
function shimBinDir(self: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'prose-subagent-bin-'));
  writeFileSync(join(dir, 'prose-state'), `#!/bin/sh\nexec ${self.map(shSq).join(' ')} "$@"\n`);
  chmodSync(join(dir, 'prose-state'), 0o755);
  return dir;
}

function sh(cmd: string, cwd: string, env: Record<string, string | undefined>, timeout: number): Promise<void> {
  return new Promise((res, rej) => {
    execFile('/bin/sh', ['-c', cmd], { cwd, env, timeout, maxBuffer: 16 << 20 }, (err, _out, stderr) => {
      if (!err) return res();
      const why = stderr.trim().split('\n')[0] || err.message;
      rej(
        new ProseError('E_IO', `the subagent's command failed (exit ${err.code ?? err.signal}): ${why}`, {
          hint: cmd.slice(0, 200),
        }),
      );
    });
  });
}

/**
 * A postgres subagent without psql: reads the -v variables of the command as sh would (single quotes, '\''), then
 * substitutes :'var' as psql does (a quoted literal) and runs the script on the subagent's connection.
 */
async function runPsqlScripts(text: string, w: SubagentWork, o: FollowOptions): Promise<void> {
  if (!o.pgRun) throw new ProseError('E_USAGE', 'a postgres subagent needs a connection to run its script on');
  for (const cmd of blocks(text, BEGIN_COMMAND, END_COMMAND)) {
    const filled = fill(cmd, w, psqlText);
    const open = filled.indexOf("<<'PROSE_SQL'\n");
    if (open === -1) throw new ProseError('E_FORMAT', "instructions: a psql command without its <<'PROSE_SQL' script");
    const script = filled.slice(open + "<<'PROSE_SQL'\n".length, filled.lastIndexOf('\nPROSE_SQL'));
    const vars: Record<string, string> = {};
    for (const m of filled.slice(0, open).matchAll(/-v (\w+)=((?:'[^']*'|\\')+)/g))
      vars[m[1]!] = m[2]!.replace(/'([^']*)'|\\'/g, (_, inner: string | undefined) => inner ?? "'");
    await o.pgRun(script.replace(/:'(\w+)'/g, (whole, k: string) => (k in vars ? sqlLit(vars[k]!) : whole)));
  }
}
