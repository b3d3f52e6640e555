// The lock lives in src/io so the filesystem backend shares it; kept here so the engine's imports stay as they are.
export * from '../../../io/file-lock.ts';
