import type { RuleTable } from '../kit/rule-table.ts';

/**
 * `verify --since OLD PATH`: the files the current edition keeps append-only, compared between an earlier snapshot
 * and now (fs "vm.log.md — Append-Only Execution Log", "When the VM Writes"; fs "Directory Structure": receipts/ is
 * an "Append-only receipt ledger", state/world-model/{node}/receipts.jsonl "the node's durable receipt ledger").
 */
export const APPEND_RULES = {
  'append.changed': {
    severity: 'error',
    enforces:
      'fs "When the VM Writes": "Each write is a single line append": a line of vm.log.md, receipts/{node}.jsonl or ' +
      'state/world-model/{node}/receipts.jsonl that OLD holds is still there, byte for byte, at the same line number ' +
      '(a torn last line of OLD may be completed).',
    hint: 'append new lines after the last one; never rewrite or insert a line',
  },
  'append.removed': {
    severity: 'error',
    enforces:
      'fs "vm.log.md — Append-Only Execution Log", "Directory Structure" (receipts are an append-only ledger): an ' +
      'append-only file OLD holds is not removed or cut short.',
    hint: 'keep every line of vm.log.md and the receipt ledgers; a run is resumed from them (fs "Resumption")',
  },
  'append.snapshot': {
    severity: 'warning',
    enforces:
      '--since OLD names an earlier snapshot of the same current run or <openprose-root>: a file of OLD that cannot ' +
      'be read is not compared, and an OLD holding no append-only file compares nothing.',
    hint: 'pass --since the copy of the run (or root) taken earlier, of the same shape as PATH',
  },
} as const satisfies RuleTable;

export type AppendRuleId = keyof typeof APPEND_RULES;
