import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BEGIN_COMMAND, BEGIN_FILE, BEGIN_RETURN, END_COMMAND, END_FILE, END_RETURN, PLACEHOLDER } from '../../../src/session/index.ts';
import { sqlLit } from '../../../src/session/shell-quote.ts';
import { COMMANDS } from '../../../src/cli/commands/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** What the scripted subagent produces: its output and, as a persistent agent, its memory and segment summary. */
export interface Work { value: string; summary: string; memory?: string; segmentSummary?: string; timestamp?: string }

const blocks = (text: string, begin: string, end: string): string[] => {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const a = text.indexOf(`${begin}\n`, i);
    if (a === -1) return out;
    const b = text.indexOf(`\n${end}`, a);
    out.push(text.slice(a + begin.length + 1, b));
    i = b + end.length;
  }
};
const after = (text: string, label: string): string | undefined => new RegExp(`${label}\\n  (.+)`).exec(text)?.[1];

/** The confirmation, built exactly as instructed. */
export function returnMessage(text: string, w: Work): string {
  return blocks(text, BEGIN_RETURN, END_RETURN)[0]!.replace(PLACEHOLDER.returnSummary, w.summary) + '\n';
}

/** A filesystem subagent: writes the files exactly as the instructions show them, placeholders filled. */
export function followFilesystem(text: string, projectDir: string, w: Work): string {
  const files = blocks(text, BEGIN_FILE, END_FILE);
  const bindingPath = after(text, 'write your output to:');
  let k = 0;
  if (bindingPath) write(projectDir, bindingPath, files[k++]!.replace(PLACEHOLDER.value, w.value));
  const memPath = after(text, 'Your memory is at:');
  if (memPath) {
    k++; // the memory template: the agent writes its own memory in that structure
    write(projectDir, memPath, w.memory!);
    const seg = files[k++]!.replace(PLACEHOLDER.timestamp, w.timestamp ?? '2026-01-16T14:30:52Z');
    write(projectDir, after(text, 'segment record to:')!, seg.slice(0, seg.indexOf('## Summary\n\n') + 12) + w.segmentSummary!);
  }
  return returnMessage(text, w);
}

function write(projectDir: string, path: string, content: string): void {
  const abs = resolve(projectDir, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

/** Placeholders in SQL inside shell double quotes: the two-step rule the sqlite instructions state. */
const sqliteText = (s: string) => s.replaceAll("'", "''").replace(/[\\$`"]/g, '\\$&');
/** Placeholders in shell single quotes (psql -v): each ' as '\''. */
const psqlText = (s: string) => s.replaceAll("'", `'\\''`);

function fill(cmd: string, w: Work, esc: (s: string) => string): string {
  return cmd.replaceAll(PLACEHOLDER.sqlValue, esc(w.value)).replaceAll(PLACEHOLDER.memory, esc(w.memory ?? ''))
    .replaceAll(PLACEHOLDER.summary, esc(w.segmentSummary ?? '')).replaceAll(PLACEHOLDER.timestamp, w.timestamp ?? '2026-01-16T14:30:52Z');
}

/** A directory holding a `prose-state` program, for instructions that say `prose-state sqlite3`. */
export function shimBinDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prose-session-bin-'));
  const viaCli = COMMANDS.some((c) => c.name === 'sqlite3');
  const target = viaCli ? `node ${join(ROOT, 'bin/prose-state.js')} "$@"` : `node --import ${import.meta.resolve('tsx')} ${join(ROOT, 'spec/session/helpers/sqlite3-shim-main.ts')} "$@"`;
  writeFileSync(join(dir, 'prose-state'), `#!/bin/sh\n${viaCli ? '' : 'shift\n'}exec ${target}\n`);
  chmodSync(join(dir, 'prose-state'), 0o755);
  return dir;
}

/** A sqlite subagent: runs each command it was given through the shell, from the project directory. */
export function followSqlite(text: string, projectDir: string, w: Work, binDir?: string): string {
  const env = { ...process.env, PATH: binDir ? `${binDir}:${process.env.PATH}` : process.env.PATH, NODE_OPTIONS: '' };
  for (const cmd of blocks(text, BEGIN_COMMAND, END_COMMAND).join('\n').split('\n')) {
    execFileSync('sh', ['-c', fill(cmd, w, sqliteText)], { cwd: projectDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  }
  return returnMessage(text, w);
}

/**
 * A postgres subagent without psql: reads the -v variables of the command as sh would (single quotes, '\''), then
 * substitutes :'var' as psql does and hands the script to `run` (pg-mem, or a real server).
 */
export async function followPostgres(text: string, w: Work, run: (sql: string) => Promise<unknown>): Promise<string> {
  for (const cmd of blocks(text, BEGIN_COMMAND, END_COMMAND)) {
    const filled = fill(cmd, w, psqlText);
    const open = filled.indexOf("<<'PROSE_SQL'\n");
    const line = filled.slice(0, open);
    const script = filled.slice(open + "<<'PROSE_SQL'\n".length, filled.lastIndexOf('\nPROSE_SQL'));
    const vars: Record<string, string> = {};
    for (const m of line.matchAll(/-v (\w+)=((?:'[^']*'|\\')+)/g)) vars[m[1]!] = m[2]!.replace(/'([^']*)'|\\'/g, (_, inner: string | undefined) => inner ?? "'");
    await run(script.replace(/:'(\w+)'/g, (_, k: string) => sqlLit(vars[k]!)));
  }
  return returnMessage(text, w);
}
