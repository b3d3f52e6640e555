import type { RuleTable } from './rule-table.ts';

/** 64 MiB: far past any binding (large values belong in attachments/), small enough to read whole. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Findings about the tree itself, whatever kind of state it holds: verify reads only regular files and directories
 * inside the tree it was given (src/verify/kit/owned-files.ts), so anything else it meets is reported, never followed.
 */
export const TREE_RULES = {
  'tree.symlink': {
    severity: 'error',
    enforces:
      'filesystem.md "Directory Structure": a state tree holds directories and regular files; a link could point ' +
      'anywhere on the machine, so verify reports it and never follows it.',
    hint: 'replace the link with the file or directory it points to',
  },
  'tree.special-file': {
    severity: 'error',
    enforces: 'filesystem.md "Directory Structure": a FIFO, socket or device is not state; verify never opens one.',
    hint: 'remove it: a state tree holds directories and regular files only',
  },
  'tree.too-large': {
    severity: 'error',
    enforces: 'A file over the size cap is not read, so it is not checked (the cap keeps verify in bounded memory).',
    hint:
      'move a large value into attachments/, or raise the cap with verify --max-file-bytes N ' +
      `(VerifyOptions.maxFileBytes; default ${DEFAULT_MAX_FILE_BYTES} bytes)`,
  },
  'tree.name-encoding': {
    severity: 'error',
    enforces: 'decisions names: every name in a state tree is UTF-8 text; one that is not cannot be checked.',
    hint: 'rename the file: its name is shown with the bytes that are not UTF-8 as \\xNN',
  },
} as const satisfies RuleTable;

export type TreeRuleId = keyof typeof TREE_RULES;
