/**
 * How the fingerprint engine sees a directory tree, so only one file (`fs-tree-reader.ts`) touches `node:fs` and a
 * fake tree can stand in for tests.
 */
export interface TreeFile {
  /** Path relative to the root, segments joined with `/`, as the names decode from UTF-8. */
  path: string;
  /**
   * Size in bytes when listed, or -1 when the listing did not look (the fs reader's `list`, to spare a stat per
   * file). A known size is checked: reading must find exactly this many bytes. An unknown one is learned while
   * reading (`TreeFileAccess`), so only a reader with `access` may list -1.
   */
  size: number;
  /** Whatever the reader needs to open the file again (an absolute path for the fs reader). */
  ref: string;
}

export type TreeKind = 'file' | 'directory' | 'missing' | 'other';

/**
 * Optional direct access to a file through a handle, so a small file costs one open, one read and one close
 * (no stat, no EOF probe, no generator). The artifact stream reads a file's bytes straight into its staging
 * buffer behind the frame header, and asks for the size only when the file does not fit.
 */
export interface TreeFileAccess {
  /** Opens the file for reading from its start; the handle must be closed. */
  open(file: TreeFile): number;
  /**
   * Reads up to `max` bytes at the handle's position into `buffer` at `offset` and returns how many. A count
   * below `max` means the file ended there (what read(2) guarantees for a regular file); 0 is end of file.
   */
  readInto(handle: number, buffer: Uint8Array, offset: number, max: number): number;
  /**
   * `readInto` off the main thread (the fs reader uses libuv's thread pool), so the async stream can read a large
   * file's next part while the previous one is hashed. The same contract; `buffer` is not touched once it settles.
   */
  readIntoAsync?(handle: number, buffer: Uint8Array, offset: number, max: number): Promise<number>;
  /** The file's size now (fstat for the fs reader); asked only when a file does not fit the staging buffer. */
  size(handle: number): number;
  close(handle: number): void;
}

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
   * until the next step. Total bytes read are checked against `size` by the caller. Used when `access` is absent.
   */
  chunks(file: TreeFile, buffer: Uint8Array): Iterable<Uint8Array>;
  /** The fast path, preferred over `chunks` when present. */
  access?: TreeFileAccess;
}
