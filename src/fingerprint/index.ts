export * from './tree-reader.ts';
export * from './artifact-stream.ts';
export * from './artifact-stream-async.ts';
export * from './fingerprint-directory.ts';
export * from './parallel-tree-read.ts';
export { closeReaderThreads, readyReaderThreads } from './reader-threads.ts';
export { framesJobsStarted, framesSlotsFromReaders } from './frame-ring.ts';
export { fsTreeReader } from './fs-tree-reader.ts';
