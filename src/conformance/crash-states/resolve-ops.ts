import { isAbsolute, relative, resolve } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import { FileModel, type FileOp } from './file-model.ts';
import { iovecBytes, stringBytes, type Syscall } from './strace-log.ts';

/** A resolved operation with what a report says of it. */
export interface LoggedOp {
  op: FileOp;
  /** e.g. `rename .prose/runs/R/bindings/.tmp-1 -> .prose/runs/R/bindings/a.md (pid 12, log line 840)`. */
  label: string;
}

type Fd =
  | { kind: 'file'; ino: number; path: string; append: boolean; pos: { v: number } }
  | { kind: 'dir'; path: string }
  | { kind: 'stdout' };

/**
 * Turns the calls of a recorded writer (and any process it started) into file operations under the model's roots,
 * tracking descriptors per file-descriptor table (threads share one; a forked process gets a copy), file positions,
 * O_APPEND and O_TRUNC. Calls on anything outside the roots are left out; the writer's `ack` lines on its standard
 * output become ack markers. Applies every operation to `model`, which ends as the state the writer left.
 */
export function resolveOps(calls: Syscall[], model: FileModel, cwd: string): LoggedOp[] {
  const r = new Resolver(calls, model, cwd);
  for (const c of calls) {
    if (c.ret === undefined || c.ret < 0) continue;
    // Looked up for every call: a forked process copies its parent's table as it is at its first call.
    const fds = r.table(c.tid);
    if (Object.hasOwn(HANDLERS, c.name)) HANDLERS[c.name]!(c as Call, r, fds);
  }
  return r.out;
}

/** A call that succeeded (its return value is known and not an error). */
type Call = Syscall & { ret: number };
type Fds = Map<number, Fd>;
type Handler = (c: Call, r: Resolver, fds: Fds) => void;

/** What resolving carries from call to call: descriptor tables, each inode's path, the writer's unfinished line. */
class Resolver {
  readonly out: LoggedOp[] = [];
  readonly inoPath = new Map<number, string>();
  stdoutBuffer = '';
  private readonly first: number | undefined;
  private readonly tableOf = new Map<number, Fds>();
  private readonly clones = new Map<number, { parent: number; share: boolean }>();

  constructor(
    calls: Syscall[],
    readonly model: FileModel,
    private readonly cwd: string,
  ) {
    this.first = calls[0]?.tid;
    for (const c of calls) {
      if ((c.name === 'clone' || c.name === 'clone3' || c.name === 'fork' || c.name === 'vfork') && (c.ret ?? -1) > 0)
        this.clones.set(c.ret!, { parent: c.tid, share: c.args.some((a) => a.includes('CLONE_FILES')) });
    }
  }

  /** The descriptor table of a thread: its parent's when they share one (CLONE_FILES), else a copy made now. */
  table(tid: number): Fds {
    let t = this.tableOf.get(tid);
    if (t) return t;
    const parent = this.clones.get(tid);
    if (!parent) t = tid === this.first ? new Map([[1, { kind: 'stdout' } as Fd]]) : new Map();
    else t = parent.share ? this.table(parent.parent) : new Map(this.table(parent.parent));
    this.tableOf.set(tid, t);
    return t;
  }

  rel(p: string): string {
    return relative(this.model.roots[0]!, p) || '.';
  }

  emit(op: FileOp, what: string, c: Syscall): void {
    this.model.apply(op);
    this.out.push({ op, label: `${what} (pid ${c.tid}, log line ${c.line})` });
  }

  /** A path argument, resolved against the working directory or the directory descriptor it is relative to. */
  pathAt(fds: Fds, dirArg: string | undefined, pathArg: string): string {
    const p = stringBytes(pathArg).toString('utf8');
    if (isAbsolute(p)) return resolve(p);
    if (dirArg === undefined || dirArg === 'AT_FDCWD') return resolve(this.cwd, p);
    const d = fds.get(Number(dirArg));
    return d && d.kind === 'dir' ? resolve(d.path, p) : resolve('/nonexistent-dirfd', p);
  }

  /** The path an inode was last named by (renames follow it). */
  pathOf(fd: { ino: number; path: string }): string {
    return this.rel(this.inoPath.get(fd.ino) ?? fd.path);
  }
}

function fileFd(fds: Fds, arg: string) {
  const f = fds.get(Number(arg));
  return f && f.kind === 'file' ? f : undefined;
}

function unsupported(c: Syscall, what: string): never {
  throw new ProseError('E_BACKEND', `the writer used ${what} on the storage, which crash states cannot replay yet`, {
    hint: `log line ${c.line}`,
  });
}

/** Two path arguments: of `rename` and `link`, or of their `*at` forms (a directory descriptor before each path). */
function twoPaths(c: Call, r: Resolver, fds: Fds, plain: string): [string, string] {
  const a = c.args;
  return c.name === plain
    ? [r.pathAt(fds, undefined, a[0]!), r.pathAt(fds, undefined, a[1]!)]
    : [r.pathAt(fds, a[0], a[1]!), r.pathAt(fds, a[2], a[3]!)];
}

const open: Handler = (c, r, fds) => {
  const a = c.args;
  const path = c.name === 'openat' ? r.pathAt(fds, a[0], a[1]!) : r.pathAt(fds, undefined, a[0]!);
  const flags = c.name === 'creat' ? 'O_CREAT|O_WRONLY|O_TRUNC' : ((c.name === 'openat' ? a[2] : a[1]) ?? '');
  if (!r.model.within(path)) {
    fds.delete(c.ret);
    return;
  }
  const entry = r.model.names.get(path);
  if (entry?.kind === 'dir' || flags.includes('O_DIRECTORY')) {
    fds.set(c.ret, { kind: 'dir', path });
    return;
  }
  let ino: number;
  if (entry?.kind === 'file') {
    ino = entry.ino;
    if (flags.includes('O_TRUNC') && /O_WRONLY|O_RDWR/.test(flags))
      r.emit({ t: 'truncate', ino, size: 0 }, `truncate ${r.rel(path)} to 0 (open O_TRUNC)`, c);
  } else {
    ino = r.model.newInode();
    r.emit({ t: 'create', path, ino }, `create ${r.rel(path)}`, c);
  }
  r.inoPath.set(ino, path);
  fds.set(c.ret, { kind: 'file', ino, path, append: flags.includes('O_APPEND'), pos: { v: 0 } });
};

const write: Handler = (c, r, fds) => {
  const a = c.args;
  const fd = fds.get(Number(a[0]));
  if (!fd) return;
  const bytes = (c.name.includes('writev') ? iovecBytes(a[1]!) : stringBytes(a[1]!)).subarray(0, c.ret);
  if (fd.kind === 'stdout') return writerLines(c, r, bytes.toString('utf8'));
  if (fd.kind !== 'file') return;
  const positioned = c.name.startsWith('p');
  const off = positioned ? Number(a[3]) : fd.append ? (r.model.inodes.get(fd.ino)?.length ?? 0) : fd.pos.v;
  r.emit(
    { t: 'write', ino: fd.ino, off, data: Buffer.from(bytes) },
    `write ${bytes.length} bytes at ${off} of ${r.pathOf(fd)}`,
    c,
  );
  if (!positioned) fd.pos.v = off + bytes.length;
};

/** The writer's standard output: each whole `ack KEY<TAB>RESULT` line is an ack marker. */
function writerLines(c: Call, r: Resolver, text: string): void {
  r.stdoutBuffer += text;
  let nl: number;
  while ((nl = r.stdoutBuffer.indexOf('\n')) !== -1) {
    const line = r.stdoutBuffer.slice(0, nl);
    r.stdoutBuffer = r.stdoutBuffer.slice(nl + 1);
    const tab = line.indexOf('\t');
    if (line.startsWith('ack ') && tab > 0) {
      const key = line.slice(4, tab);
      r.emit({ t: 'ack', key, result: JSON.parse(line.slice(tab + 1)) }, `ack ${key}`, c);
    }
  }
}

const lseek: Handler = (c, _r, fds) => {
  const fd = fileFd(fds, c.args[0]!);
  if (fd) fd.pos.v = c.ret;
};

const ftruncate: Handler = (c, r, fds) => {
  const fd = fileFd(fds, c.args[0]!);
  if (fd)
    r.emit({ t: 'truncate', ino: fd.ino, size: Number(c.args[1]) }, `truncate ${r.pathOf(fd)} to ${c.args[1]}`, c);
};

const truncate: Handler = (c, r, fds) => {
  const path = r.pathAt(fds, undefined, c.args[0]!);
  const e = r.model.names.get(path);
  if (e?.kind === 'file')
    r.emit({ t: 'truncate', ino: e.ino, size: Number(c.args[1]) }, `truncate ${r.rel(path)} to ${c.args[1]}`, c);
};

const rename: Handler = (c, r, fds) => {
  const [from, to] = twoPaths(c, r, fds, 'rename');
  if (c.name === 'renameat2' && c.args[4]?.includes('RENAME_EXCHANGE')) unsupported(c, 'renameat2 RENAME_EXCHANGE');
  if (r.model.within(from) && r.model.within(to)) {
    const e = r.model.names.get(from);
    r.emit({ t: 'rename', from, to }, `rename ${r.rel(from)} -> ${r.rel(to)}`, c);
    if (e?.kind === 'file') r.inoPath.set(e.ino, to);
  } else if (r.model.within(from)) r.emit({ t: 'unlink', path: from }, `rename ${r.rel(from)} out of the storage`, c);
  else if (r.model.within(to)) unsupported(c, 'a rename into the storage from outside it');
};

const link: Handler = (c, r, fds) => {
  const [from, to] = twoPaths(c, r, fds, 'link');
  if (r.model.within(to)) {
    if (!r.model.within(from)) unsupported(c, 'a hard link into the storage from outside it');
    r.emit({ t: 'link', from, to }, `link ${r.rel(from)} -> ${r.rel(to)}`, c);
  }
};

const unlink: Handler = (c, r, fds) => {
  const a = c.args;
  const path = c.name === 'unlinkat' ? r.pathAt(fds, a[0], a[1]!) : r.pathAt(fds, undefined, a[0]!);
  if (!r.model.within(path)) return;
  const dir = c.name === 'rmdir' || (c.name === 'unlinkat' && (a[2] ?? '').includes('AT_REMOVEDIR'));
  r.emit(dir ? { t: 'rmdir', path } : { t: 'unlink', path }, `${dir ? 'rmdir' : 'unlink'} ${r.rel(path)}`, c);
};

const mkdir: Handler = (c, r, fds) => {
  const a = c.args;
  const path = c.name === 'mkdirat' ? r.pathAt(fds, a[0], a[1]!) : r.pathAt(fds, undefined, a[0]!);
  if (r.model.within(path)) r.emit({ t: 'mkdir', path }, `mkdir ${r.rel(path)}`, c);
};

const fsync: Handler = (c, r, fds) => {
  const fd = fds.get(Number(c.args[0]));
  if (fd?.kind === 'file') r.emit({ t: 'sync', ino: fd.ino }, `${c.name} ${r.pathOf(fd)}`, c);
  else if (fd?.kind === 'dir') r.emit({ t: 'sync', dir: fd.path }, `${c.name} directory ${r.rel(fd.path)}`, c);
};

const sync: Handler = (c, r) => r.emit({ t: 'sync', all: true }, c.name, c);

const close: Handler = (c, _r, fds) => void fds.delete(Number(c.args[0]));

const dup: Handler = (c, _r, fds) => {
  if (c.name === 'fcntl' && !/F_DUPFD/.test(c.args[1] ?? '')) return;
  const src = fds.get(Number(c.args[0]));
  if (src) fds.set(c.ret, src);
  else fds.delete(c.ret);
};

/** Calls that move bytes into a file without a buffer the log shows: refused when they touch the storage. */
const unreplayable: Handler = (c, _r, fds) => {
  const a = c.args;
  const target = c.name === 'fallocate' || c.name === 'sendfile' ? a[0] : a[2];
  if (target !== undefined && fileFd(fds, target)) unsupported(c, c.name);
};

/** Each traced call's handler; a call with none changes nothing the model holds. */
const HANDLERS: Record<string, Handler> = {
  open,
  openat: open,
  creat: open,
  write,
  writev: write,
  pwrite64: write,
  pwritev: write,
  pwritev2: write,
  lseek,
  ftruncate,
  truncate,
  rename,
  renameat: rename,
  renameat2: rename,
  link,
  linkat: link,
  unlink,
  unlinkat: unlink,
  rmdir: unlink,
  mkdir,
  mkdirat: mkdir,
  fsync,
  fdatasync: fsync,
  sync,
  syncfs: sync,
  close,
  dup,
  dup2: dup,
  dup3: dup,
  fcntl: dup,
  fallocate: unreplayable,
  copy_file_range: unreplayable,
  sendfile: unreplayable,
  splice: unreplayable,
};

/** The system calls the recorder traces: every one resolveOps reads, nothing that only reads data. */
export const TRACED_CALLS = [
  'open',
  'openat',
  'creat',
  'close',
  'write',
  'writev',
  'pwrite64',
  'pwritev',
  'pwritev2',
  'lseek',
  'ftruncate',
  'truncate',
  'rename',
  'renameat',
  'renameat2',
  'link',
  'linkat',
  'unlink',
  'unlinkat',
  'rmdir',
  'mkdir',
  'mkdirat',
  'fsync',
  'fdatasync',
  'sync',
  'syncfs',
  'dup',
  'dup2',
  'dup3',
  'fcntl',
  'fallocate',
  'copy_file_range',
  'sendfile',
  'splice',
  'clone',
  'clone3',
  'fork',
  'vfork',
] as const;
