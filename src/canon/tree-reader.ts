/**
 * How the canon layer sees a directory tree, so only one file (`fs-tree-reader.ts`) touches `node:fs` and a
 * fake tree can stand in for tests.
 */
export interface TreeFile {
  /** Path relative to the root, segments joined with `/`, as the names decode from UTF-8. */
  path: string;
  /** Size in bytes when listed; reading must find exactly this many. */
  size: number;
  /** Whatever the reader needs to open the file again (an absolute path for the fs reader). */
  ref: string;
}

export type TreeKind = 'file' | 'directory' | 'missing' | 'other';

export interface TreeReader {
  /** What the root path is (a link named as the root is followed). */
  kind(path: string): TreeKind;
  /**
   * Every regular file under `root`, recursively, in any order. Refuses (E_FORMAT) what OPWM1 cannot hold:
   * symlinks, sockets, FIFOs, devices and names that are not valid UTF-8. Empty directories hold no files.
   */
  list(root: string): TreeFile[];
  /** A single regular file at `path`, listed under its base name. */
  single(path: string): TreeFile;
  /**
   * Reads the file in order into `buffer` (reused), yielding a view of each filled part; the view is valid only
   * until the next step. Total bytes read are checked against `size` by the caller.
   */
  chunks(file: TreeFile, buffer: Uint8Array): Iterable<Uint8Array>;
}
