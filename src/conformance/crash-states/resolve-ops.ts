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
  const out: LoggedOp[] = [];
  const first = calls[0]?.tid;
  const tableOf = new Map<number, Map<number, Fd>>();
  const clones = new Map<number, { parent: number; share: boolean }>();
  for (const c of calls) {
    if ((c.name === 'clone' || c.name === 'clone3' || c.name === 'fork' || c.name === 'vfork') && (c.ret ?? -1) > 0)
      clones.set(c.ret!, { parent: c.tid, share: c.args.some((a) => a.includes('CLONE_FILES')) });
  }
  const table = (tid: number): Map<number, Fd> => {
    let t = tableOf.get(tid);
    if (t) return t;
    const parent = clones.get(tid);
    if (!parent) t = tid === first ? new Map([[1, { kind: 'stdout' } as Fd]]) : new Map();
    else t = parent.share ? table(parent.parent) : new Map(table(parent.parent));
    tableOf.set(tid, t);
    return t;
  };
  const inoPath = new Map<number, string>();
  const rel = (p: string) => relative(model.roots[0]!, p) || '.';
  let stdoutBuffer = '';
  const emit = (op: FileOp, what: string, c: Syscall) => {
    model.apply(op);
    out.push({ op, label: `${what} (pid ${c.tid}, log line ${c.line})` });
  };

  for (const c of calls) {
    if (c.ret === undefined || c.ret < 0) continue;
    const fds = table(c.tid);
    const pathAt = (dirArg: string | undefined, pathArg: string): string => {
      const p = stringBytes(pathArg).toString('utf8');
      if (isAbsolute(p)) return resolve(p);
      if (dirArg === undefined || dirArg === 'AT_FDCWD') return resolve(cwd, p);
      const d = fds.get(Number(dirArg));
      return d && d.kind === 'dir' ? resolve(d.path, p) : resolve('/nonexistent-dirfd', p);
    };
    const fileFd = (arg: string) => {
      const f = fds.get(Number(arg));
      return f && f.kind === 'file' ? f : undefined;
    };
    const unsupported = (what: string) => {
      throw new ProseError(
        'E_BACKEND',
        `the writer used ${what} on the storage, which crash states cannot replay yet`,
        {
          hint: `log line ${c.line}`,
        },
      );
    };
    const a = c.args;
    switch (c.name) {
      case 'open':
      case 'openat':
      case 'creat': {
        const path = c.name === 'openat' ? pathAt(a[0], a[1]!) : pathAt(undefined, a[0]!);
        const flags = c.name === 'creat' ? 'O_CREAT|O_WRONLY|O_TRUNC' : ((c.name === 'openat' ? a[2] : a[1]) ?? '');
        if (!model.within(path)) {
          fds.delete(c.ret);
          break;
        }
        const entry = model.names.get(path);
        if (entry?.kind === 'dir' || flags.includes('O_DIRECTORY')) {
          fds.set(c.ret, { kind: 'dir', path });
          break;
        }
        let ino: number;
        if (entry?.kind === 'file') {
          ino = entry.ino;
          if (flags.includes('O_TRUNC') && /O_WRONLY|O_RDWR/.test(flags))
            emit({ t: 'truncate', ino, size: 0 }, `truncate ${rel(path)} to 0 (open O_TRUNC)`, c);
        } else {
          ino = model.newInode();
          emit({ t: 'create', path, ino }, `create ${rel(path)}`, c);
        }
        inoPath.set(ino, path);
        fds.set(c.ret, { kind: 'file', ino, path, append: flags.includes('O_APPEND'), pos: { v: 0 } });
        break;
      }
      case 'write':
      case 'writev':
      case 'pwrite64':
      case 'pwritev':
      case 'pwritev2': {
        const fd = fds.get(Number(a[0]));
        if (!fd) break;
        const bytes = (c.name.includes('writev') ? iovecBytes(a[1]!) : stringBytes(a[1]!)).subarray(0, c.ret);
        if (fd.kind === 'stdout') {
          stdoutBuffer += bytes.toString('utf8');
          let nl: number;
          while ((nl = stdoutBuffer.indexOf('\n')) !== -1) {
            const line = stdoutBuffer.slice(0, nl);
            stdoutBuffer = stdoutBuffer.slice(nl + 1);
            const tab = line.indexOf('\t');
            if (line.startsWith('ack ') && tab > 0) {
              const key = line.slice(4, tab);
              emit({ t: 'ack', key, result: JSON.parse(line.slice(tab + 1)) }, `ack ${key}`, c);
            }
          }
          break;
        }
        if (fd.kind !== 'file') break;
        const positioned = c.name.startsWith('p');
        const off = positioned ? Number(a[3]) : fd.append ? (model.inodes.get(fd.ino)?.length ?? 0) : fd.pos.v;
        emit(
          { t: 'write', ino: fd.ino, off, data: Buffer.from(bytes) },
          `write ${bytes.length} bytes at ${off} of ${rel(inoPath.get(fd.ino) ?? fd.path)}`,
          c,
        );
        if (!positioned) fd.pos.v = off + bytes.length;
        break;
      }
      case 'lseek': {
        const fd = fileFd(a[0]!);
        if (fd) fd.pos.v = c.ret;
        break;
      }
      case 'ftruncate': {
        const fd = fileFd(a[0]!);
        if (fd)
          emit(
            { t: 'truncate', ino: fd.ino, size: Number(a[1]) },
            `truncate ${rel(inoPath.get(fd.ino) ?? fd.path)} to ${a[1]}`,
            c,
          );
        break;
      }
      case 'truncate': {
        const path = pathAt(undefined, a[0]!);
        const e = model.names.get(path);
        if (e?.kind === 'file')
          emit({ t: 'truncate', ino: e.ino, size: Number(a[1]) }, `truncate ${rel(path)} to ${a[1]}`, c);
        break;
      }
      case 'rename':
      case 'renameat':
      case 'renameat2': {
        const [from, to] =
          c.name === 'rename'
            ? [pathAt(undefined, a[0]!), pathAt(undefined, a[1]!)]
            : [pathAt(a[0], a[1]!), pathAt(a[2], a[3]!)];
        if (c.name === 'renameat2' && a[4]?.includes('RENAME_EXCHANGE')) unsupported('renameat2 RENAME_EXCHANGE');
        if (model.within(from) && model.within(to)) {
          const e = model.names.get(from);
          emit({ t: 'rename', from, to }, `rename ${rel(from)} -> ${rel(to)}`, c);
          if (e?.kind === 'file') inoPath.set(e.ino, to);
        } else if (model.within(from)) emit({ t: 'unlink', path: from }, `rename ${rel(from)} out of the storage`, c);
        else if (model.within(to)) unsupported('a rename into the storage from outside it');
        break;
      }
      case 'link':
      case 'linkat': {
        const [from, to] =
          c.name === 'link'
            ? [pathAt(undefined, a[0]!), pathAt(undefined, a[1]!)]
            : [pathAt(a[0], a[1]!), pathAt(a[2], a[3]!)];
        if (model.within(to)) {
          if (!model.within(from)) unsupported('a hard link into the storage from outside it');
          emit({ t: 'link', from, to }, `link ${rel(from)} -> ${rel(to)}`, c);
        }
        break;
      }
      case 'unlink':
      case 'unlinkat':
      case 'rmdir': {
        const path = c.name === 'unlinkat' ? pathAt(a[0], a[1]!) : pathAt(undefined, a[0]!);
        if (!model.within(path)) break;
        const dir = c.name === 'rmdir' || (c.name === 'unlinkat' && (a[2] ?? '').includes('AT_REMOVEDIR'));
        emit(dir ? { t: 'rmdir', path } : { t: 'unlink', path }, `${dir ? 'rmdir' : 'unlink'} ${rel(path)}`, c);
        break;
      }
      case 'mkdir':
      case 'mkdirat': {
        const path = c.name === 'mkdirat' ? pathAt(a[0], a[1]!) : pathAt(undefined, a[0]!);
        if (model.within(path)) emit({ t: 'mkdir', path }, `mkdir ${rel(path)}`, c);
        break;
      }
      case 'fsync':
      case 'fdatasync': {
        const fd = fds.get(Number(a[0]));
        if (fd?.kind === 'file')
          emit({ t: 'sync', ino: fd.ino }, `${c.name} ${rel(inoPath.get(fd.ino) ?? fd.path)}`, c);
        else if (fd?.kind === 'dir') emit({ t: 'sync', dir: fd.path }, `${c.name} directory ${rel(fd.path)}`, c);
        break;
      }
      case 'sync':
      case 'syncfs':
        emit({ t: 'sync', all: true }, c.name, c);
        break;
      case 'close':
        fds.delete(Number(a[0]));
        break;
      case 'dup':
      case 'dup2':
      case 'dup3':
      case 'fcntl': {
        if (c.name === 'fcntl' && !/F_DUPFD/.test(a[1] ?? '')) break;
        const src = fds.get(Number(a[0]));
        if (src) fds.set(c.ret, src);
        else fds.delete(c.ret);
        break;
      }
      case 'fallocate':
      case 'copy_file_range':
      case 'sendfile':
      case 'splice': {
        const target = c.name === 'fallocate' || c.name === 'sendfile' ? a[0] : c.name === 'splice' ? a[2] : a[2];
        if (target !== undefined && fileFd(target)) unsupported(c.name);
        break;
      }
    }
  }
  return out;
}

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
