import { mkdirSync, readdirSync, readFileSync, lstatSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { unreachable } from '../unreachable.ts';

/**
 * A file operation as the file system saw it, resolved from the recorded calls: names are absolute paths, file
 * contents are addressed by inode (a write through a descriptor reaches the file whatever it is named by then).
 */
export type FileOp =
  | { t: 'create'; path: string; ino: number }
  | { t: 'write'; ino: number; off: number; data: Buffer }
  | { t: 'truncate'; ino: number; size: number }
  | { t: 'rename'; from: string; to: string }
  | { t: 'link'; from: string; to: string }
  | { t: 'unlink'; path: string }
  | { t: 'mkdir'; path: string }
  | { t: 'rmdir'; path: string }
  /** fsync/fdatasync of a file (`ino`) or of a directory (`dir`); `all` for sync/syncfs. */
  | { t: 'sync'; ino?: number; dir?: string; all?: boolean }
  /** The writer printed `ack KEY<TAB>RESULT`: KEY was acknowledged from here on. */
  | { t: 'ack'; key: string; result: unknown };

export type Entry = { kind: 'file'; ino: number } | { kind: 'dir' };

/**
 * The part of a file system under `roots`, in memory: names to inodes and inode contents. Recorded operations are
 * applied to it; one that cannot apply (its source or parent missing, because an earlier operation was left out of
 * this crash state) is skipped, as the file system would have refused it.
 */
export class FileModel {
  readonly names = new Map<string, Entry>();
  readonly inodes = new Map<number, Buffer>();
  private nextIno = 1;

  constructor(readonly roots: readonly string[]) {}

  /** Reads the trees under the roots from disk (the state before the writer started). */
  static load(roots: readonly string[]): FileModel {
    const m = new FileModel(roots);
    const walk = (dir: string) => {
      m.names.set(dir, { kind: 'dir' });
      for (const e of readdirSync(dir)) {
        const p = join(dir, e);
        const st = lstatSync(p);
        if (st.isDirectory()) walk(p);
        else if (st.isFile()) m.names.set(p, { kind: 'file', ino: m.newInode(readFileSync(p)) });
      }
    };
    for (const r of roots) walk(r);
    return m;
  }

  clone(): FileModel {
    const m = new FileModel(this.roots);
    for (const [k, v] of this.names) m.names.set(k, v);
    for (const [k, v] of this.inodes) m.inodes.set(k, v);
    m.nextIno = this.nextIno;
    return m;
  }

  newInode(data: Buffer = Buffer.alloc(0)): number {
    const ino = this.nextIno++;
    this.inodes.set(ino, data);
    return ino;
  }

  /** Reserves inode numbers up to `ino`, so a replay creates files under the numbers the log used. */
  reserve(ino: number): void {
    this.nextIno = Math.max(this.nextIno, ino + 1);
  }

  within(path: string): boolean {
    return this.roots.some((r) => path === r || path.startsWith(r + sep));
  }

  private parentExists(path: string): boolean {
    return this.names.get(dirname(path))?.kind === 'dir';
  }

  /** Applies one operation; returns false when it could not apply in this state. */
  apply(op: FileOp): boolean {
    switch (op.t) {
      case 'create':
        if (this.names.has(op.path) || !this.parentExists(op.path)) return false;
        if (!this.inodes.has(op.ino)) this.inodes.set(op.ino, Buffer.alloc(0));
        this.names.set(op.path, { kind: 'file', ino: op.ino });
        return true;
      case 'write': {
        const old = this.inodes.get(op.ino) ?? Buffer.alloc(0);
        const size = Math.max(old.length, op.off + op.data.length);
        const next = Buffer.alloc(size);
        old.copy(next);
        op.data.copy(next, op.off);
        this.inodes.set(op.ino, next);
        return true;
      }
      case 'truncate': {
        const old = this.inodes.get(op.ino) ?? Buffer.alloc(0);
        const next = Buffer.alloc(op.size);
        old.copy(next, 0, 0, Math.min(old.length, op.size));
        this.inodes.set(op.ino, next);
        return true;
      }
      case 'rename': {
        const src = this.names.get(op.from);
        if (!src || !this.parentExists(op.to)) return false;
        if (src.kind === 'dir') {
          for (const [k, v] of [...this.names]) {
            if (k === op.from || k.startsWith(op.from + sep)) {
              this.names.delete(k);
              this.names.set(op.to + k.slice(op.from.length), v);
            }
          }
        } else {
          this.names.delete(op.from);
          this.names.set(op.to, src);
        }
        return true;
      }
      case 'link': {
        const src = this.names.get(op.from);
        if (!src || src.kind !== 'file' || this.names.has(op.to) || !this.parentExists(op.to)) return false;
        this.names.set(op.to, src);
        return true;
      }
      case 'unlink':
        return this.names.get(op.path)?.kind === 'file' ? this.names.delete(op.path) : false;
      case 'mkdir':
        if (this.names.has(op.path) || !this.parentExists(op.path)) return false;
        this.names.set(op.path, { kind: 'dir' });
        return true;
      case 'rmdir': {
        if (this.names.get(op.path)?.kind !== 'dir') return false;
        for (const k of this.names.keys()) if (k.startsWith(op.path + sep)) return false;
        return this.names.delete(op.path);
      }
      case 'sync':
      case 'ack':
        return true;
      default:
        return unreachable(op, 'file operation');
    }
  }

  /**
   * Writes this state over the roots on disk (everything there before is removed). Everything is dated a minute back:
   * a crash is followed by a restart, and a lock file a dead writer left must look as old as it would then.
   */
  materialize(): void {
    for (const r of this.roots) rmSync(r, { recursive: true, force: true });
    const past = new Date(Date.now() - 60_000);
    const paths = [...this.names.keys()].sort();
    for (const p of paths) {
      const e = this.names.get(p)!;
      if (e.kind === 'dir') mkdirSync(p, { recursive: true });
      else {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, this.inodes.get(e.ino) ?? Buffer.alloc(0));
        utimesSync(p, past, past);
      }
    }
    // Directories last, deepest first: writing a file dated the directory holding it.
    for (const p of paths.reverse()) if (this.names.get(p)!.kind === 'dir') utimesSync(p, past, past);
  }

  /** A digest of the visible state (names and contents), to build each distinct crash state once. */
  digest(hash: (parts: (string | Buffer)[]) => string): string {
    const parts: (string | Buffer)[] = [];
    for (const p of [...this.names.keys()].sort()) {
      const e = this.names.get(p)!;
      parts.push(`${relative('/', p)}\0${e.kind}\0`);
      if (e.kind === 'file') parts.push(this.inodes.get(e.ino) ?? Buffer.alloc(0), '\0');
    }
    return hash(parts);
  }
}
