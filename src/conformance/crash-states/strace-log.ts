import { ProseError } from '../../core/errors.ts';

/** One completed system call from an `strace -f -tt -xx` log, its arguments split at the top level. */
export interface Syscall {
  /** The thread id strace printed (a process's first thread has the process id). */
  tid: number;
  name: string;
  args: string[];
  /** The return value; negative (with the errno) for a failed call, undefined when strace printed `?`. */
  ret: number | undefined;
  /** The log's line number where the call completed, for reports. */
  line: number;
}

const LINE = /^(\d+)\s+(?:\d\d:\d\d:\d\d\.\d+\s+)?(.*)$/;
const CALL = /^([a-z_0-9]+)\((.*)\)\s+=\s+(-?\d+|0x[0-9a-f]+|\?)(?:\s.*)?$/s;
const UNFINISHED = /^([a-z_0-9]+)\((.*?)\s*<unfinished \.\.\.>$/s;
const RESUMED = /^<\.\.\. ([a-z_0-9]+) resumed>(.*)$/s;

/**
 * Reads an strace log written with `-f -tt -xx`. A call another thread interrupted is printed in two halves
 * (`<unfinished ...>`, later `<... NAME resumed>`); they are joined and the call takes its place where it completed,
 * since that is when its effect is certain. Signals, exits and attach notes are not calls and are left out.
 */
export function parseStraceLog(text: string): Syscall[] {
  const out: Syscall[] = [];
  const pending = new Map<number, { name: string; head: string }>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = LINE.exec(lines[i]!);
    if (!m) continue;
    const tid = Number(m[1]);
    let body = m[2]!;
    const unfinished = UNFINISHED.exec(body);
    if (unfinished) {
      pending.set(tid, { name: unfinished[1]!, head: unfinished[2]! });
      continue;
    }
    const resumed = RESUMED.exec(body);
    if (resumed) {
      const head = pending.get(tid);
      pending.delete(tid);
      if (!head || head.name !== resumed[1]) continue;
      const tail = resumed[2]!;
      body = `${head.name}(${head.head}${head.head && !tail.startsWith(')') && !tail.startsWith(',') ? ', ' : ''}${tail}`;
    }
    const call = CALL.exec(body);
    if (!call) continue;
    const ret = call[3] === '?' ? undefined : Number(call[3]);
    out.push({ tid, name: call[1]!, args: splitArgs(call[2]!), ret, line: i + 1 });
  }
  return out;
}

/** Splits an argument list at commas outside strings, brackets and braces. */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = s.slice(start).trim();
  if (last || out.length) out.push(last);
  return out;
}

/**
 * The bytes of a string argument printed with `-xx` (every byte as \xNN). A string strace cut short (`"..."...`)
 * is refused: the recorder's -s was smaller than the write, and a partial write would pass for a whole one.
 */
export function stringBytes(arg: string): Buffer {
  const m = /^"((?:\\x[0-9a-f]{2})*)"(\.\.\.)?$/.exec(arg);
  if (!m)
    throw new ProseError(
      'E_BACKEND',
      `the system-call recorder printed an argument not as hex bytes: ${arg.slice(0, 80)}`,
    );
  if (m[2])
    throw new ProseError('E_BACKEND', 'the system-call recorder cut a written buffer short (raise strace -s)', {
      hint: arg.slice(0, 80),
    });
  return Buffer.from(m[1]!.replace(/\\x/g, ''), 'hex');
}

/** Every `iov_base="..."` buffer of a writev-style iovec array, in order. */
export function iovecBytes(arg: string): Buffer {
  const parts = [...arg.matchAll(/iov_base=("(?:\\x[0-9a-f]{2})*"(?:\.\.\.)?)/g)].map((m) => stringBytes(m[1]!));
  return Buffer.concat(parts);
}
