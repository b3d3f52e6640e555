import type { RuleTable } from '../kit/rule-table.ts';

/**
 * Rules of the current edition's state beyond one run's files (issue 31 item 3): what the workspace, the durable
 * store, run-typed inputs and facets must look like. fs is the current state/filesystem.md.
 */
export const CURRENT_STATE_RULES = {
  'wm.workspace-fingerprint': {
    severity: 'error',
    enforces:
      'fs "workspace/ — Private Render Scratch": "Never fingerprinted": no .version and no receipt fingerprint or ' +
      'input fingerprint is the address of workspace/{node}/ (its OPWM1) or of one workspace file, unless the ' +
      'published files are the very same bytes.',
    hint: 'fingerprint the canonical artifact the VM publishes in world-model/{node}/, never the render scratch',
  },
  'durable.per-run-store': {
    severity: 'error',
    enforces:
      'fs "Directory Structure": versions live in the durable <openprose-root>/state/world-model/{node}/versions/; ' +
      'a run holds no state/ of its own (runs/{id}/state/ is the v0 hybrid store, decision wm-version-store).',
    hint: 'store versions, published/ and receipts.jsonl under <openprose-root>/state/world-model/{node}/',
  },
  'durable.node': {
    severity: 'error',
    enforces:
      'fs "Directory Structure": state/world-model/{node}/ holds published/, versions/ and receipts.jsonl; a ' +
      'durable node that no run under runs/ names still has a ledger its published/ and versions/ agree with ' +
      '(checked under the durable.* and wm.* rules), and no other entry.',
    hint: 'keep published/, versions/ and receipts.jsonl in the node directory and nothing else',
  },
  'wm.caller-run': {
    severity: 'error',
    enforces:
      'fs "Run-Typed Inputs": a type: run input names one run ("run: {id}"), type: run[] a list of "- run: {id}" ' +
      'items; a bare id is a run id and resolves to <openprose-root>/runs/{id} ("path:", when given, says so); when ' +
      'that run is there (a pruned one is not a finding), "status: complete" names a run whose vm.log.md has ---end.',
    hint: 'bind the upstream run as written in fs "Run-Typed Inputs": run, path, root, status',
  },
  'wm.facets': {
    severity: 'warning',
    enforces:
      'fs "Faceted layout — one subtree per facet": a faceted node lays each facet out as published/<facet>/ and ' +
      'its rendered receipt carries "@atomic" and one token per facet: when the last rendered receipt has facet ' +
      'tokens, they and the published/ subtrees name the same facets, and published/ holds only facet directories.',
    hint: 'one published/<facet>/ directory per facet token of the last rendered receipt, and the other way round',
  },
} as const satisfies RuleTable;
