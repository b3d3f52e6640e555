// The locks live in src/io so the filesystem backend shares them; kept here so the engine's imports stay as they are.
export * from '../../../io/file-lock.ts';
export { ReaderMark, withSharedLock } from '../../../io/reader-mark.ts';
