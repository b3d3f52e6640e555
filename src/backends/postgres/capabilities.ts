import type { Capability } from '../../core/capabilities.ts';

/** What both engines declare. */
const COMMON: readonly Capability[] = [
  'attachments',
  'project-scope',
  'user-scope',
  'custom-scope',
  'imports',
  'durable',
  'world-model',
  'receipts',
  'layout:postgres',
  'edition:v0',
  'edition:current',
  'subagent-writes',
];

/** pg-mem lives in one process's memory, so other processes cannot write to it. */
export const PG_MEM_CAPABILITIES: readonly Capability[] = COMMON;
export const PG_SERVER_CAPABILITIES: readonly Capability[] = [...COMMON, 'concurrent-writers', 'multi-process'];
