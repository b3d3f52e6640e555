import { LEDGER_RULES } from '../kit/ledger-rules.ts';
import { prefixRules, type RuleTable } from '../kit/rule-table.ts';
import { RUN_DIR_RULES } from '../run-dir/rules.ts';
import { WORLD_MODEL_RULES } from '../world-model/rules.ts';
import { CURRENT_STATE_RULES } from './state-rules.ts';

/**
 * The rules only a current-edition run (`<openprose-root>/runs/{id}/`, docs/editions.md) has. fs is the current
 * state/filesystem.md, prose.md the current VM text; the decisions cited are conformance/decisions/editions.yaml's.
 */
export const CURRENT_RUN_OWN_RULES = {
  'run.envelope': {
    severity: 'error',
    enforces:
      'state/README.md "Durable Run Envelope": root.prose.md, sources/ and the compiled intent, written before ' +
      'success; compiled-intent.json is JSON (decision compiled-intent-required: required in a mounted run).',
    hint: 'the compile phase writes root.prose.md, sources/ and compiled-intent.json before the first render',
  },
  'root.run': {
    severity: 'warning',
    enforces:
      'fs "Directory Structure": <openprose-root>/runs/ holds one directory per run, each with vm.log.md and ' +
      'root.prose.md, or a SQLite run\'s state.db beside root.prose.md (sqlite.md "Database Location"); a run holding ' +
      'state.md is v0 (docs/editions.md).',
    hint: 'verify a v0 run on its own (it is a run-dir), and keep other files out of runs/',
  },
  'run.envelope-optional': {
    severity: 'warning',
    enforces:
      'decision compiled-intent-required: a function or test run may leave compiled-intent.json out (its activation record).',
    hint: 'write the minimal activation record to compiled-intent.json',
  },
  'vmlog.file': {
    severity: 'error',
    enforces: 'fs "vm.log.md — Append-Only Execution Log": the run has a readable vm.log.md, every line UTF-8.',
    hint: 'the VM appends vm.log.md one UTF-8 line per event',
  },
  'vmlog.torn': {
    severity: 'warning',
    enforces: 'fs "When the VM Writes": "Each write is a single line append": the file ends with a newline.',
    hint: 'a last line without its newline is a torn append',
  },
  'vmlog.header': {
    severity: 'error',
    enforces:
      'fs "Format": "# run:{id} {root-name}", optional "upstream: [ids]" (run ids, only with run-typed inputs), ' +
      'then a non-empty "root:" line; a blank line after the heading is accepted (decision vm-log-header).',
    hint: 'start vm.log.md with "# run:{id} {root-name}", then "root: {contract path}", then a blank line',
  },
  'vmlog.run-id': {
    severity: 'error',
    enforces: 'fs "Format": the heading names the run: "# run:{id}" is a run id and equals the directory name.',
    hint: 'write the run directory name after "# run:"',
  },
  'vmlog.marker': {
    severity: 'error',
    enforces:
      'fs and prose.md "Event Markers": every line after the header is a marker (input, rendered, skipped, ' +
      'parallel, error, delegate, resumed, eval, ---test, ---end, ---error; prose.md\'s "⊘ terminated (reason)" ' +
      'with a non-empty reason, decision vm-log-terminated).',
    hint: 'write one marker per line, e.g. "2→ researcher ✓ rendered" or "---end 2026-03-17T14:35:22Z"',
  },
  'vmlog.order': {
    severity: 'error',
    enforces:
      'fs "Event Markers": steps count 1, 2, 3; a parallel group\'s branches Na, Nb share its N and close with ' +
      '"N→ ∥done"; delegate lines share their step; ---test, then ---end or ---error, end the log.',
    hint: 'number each new step one past the last; nothing follows ---end or ---error',
  },
  'vmlog.incomplete': {
    severity: 'warning',
    enforces: 'prose.md "Completion status": "---end" means completed, "---error" failed, neither incomplete.',
    hint: 'a finished run ends with "---end TIMESTAMP" or "---error TIMESTAMP msg"',
  },
  'vmlog.input': {
    severity: 'error',
    enforces:
      'fs "Caller / Gateway Input Files" and "When the VM Writes": each caller input ' +
      'world-model/caller/{name}.md has its "N→ [input] name ✓" marker, and each marker its file.',
    hint: 'bind each caller input as world-model/caller/{name}.md and log "[input] name ✓"',
  },
  'vmlog.upstream': {
    severity: 'error',
    enforces:
      'fs "Format", prose.md "Event Store": upstream: lists the run ids of all run-typed inputs (world-model/caller/ ' +
      'files with type: run or run[]), and is omitted when there are none.',
    hint: 'list every run: id of the run-typed caller inputs in "upstream: [id, …]"',
  },
  'vmlog.rendered': {
    severity: 'error',
    enforces:
      'fs "The Commit-and-Sign Protocol" step 5 (upstream\'s smoke checks it): a node with a rendered receipt ' +
      'has a "✓ rendered" marker (a bare parallel "Na→ a ✓" counts, decision vm-log-parallel-outcome).',
    hint: 'append "N→ {node} ✓ rendered" after committing the node\'s world-model',
  },
  'vmlog.receipt': {
    severity: 'error',
    enforces:
      'fs "The Commit-and-Sign Protocol": a rendered, skipped or ✗ marker of a mounted run records a receipt of that status in receipts/{node}.jsonl.',
    hint: 'the receipt is appended with its marker: rendered, skipped, failed',
  },
  'vmlog.error-file': {
    severity: 'error',
    enforces:
      'decision error-file-heading: workspace/{node}/__error.md starts "# Error: name" (fs "Error Files") or ' +
      '"# Render failed: name" (session.md "3.2 How to Signal Failure"), and the name is one a "N→ node ✗ name" ' +
      'marker of that node carries; a complete log marks ✗ every node with an __error.md.',
    hint: 'write "# Error: {error-name}" and log "N→ {node} ✗ {error-name}" with the same name',
  },
  'root.compiled-intent': {
    severity: 'warning',
    enforces:
      'decision compiled-intent-names: dist/intent.X.json (fs "Directory Structure") and dist/manifest.X.json ' +
      '(SKILL.md "Command Routing") are one file under two names; both present with different bytes disagree.',
    hint: 'keep one of dist/intent.X.json and dist/manifest.X.json, or make them the same bytes',
  },
  'wm.caller': {
    severity: 'error',
    enforces:
      'fs "Caller / Gateway Input Files": "# name", "binding: input", "source: caller", optional "type: run" or "type: run[]", a "---" line, then the value.',
    hint: 'write the caller input as "# name", "binding: input", "source: caller", "---", value',
  },
  'wm.workspace': {
    severity: 'error',
    enforces:
      'fs "workspace/ — Private Render Scratch": "Never fingerprinted, never subscribed to": no receipt names a ' +
      'workspace/ path and no world-model/{node}/ holds workspace/ or a "__" file (__error.md, __delegate/).',
    hint: 'keep scratch and __error.md in workspace/{node}/; publish only the structured truth',
  },
  'durable.dir': {
    severity: 'warning',
    enforces:
      'decision durable-world-model-dir: the durable store is state/world-model/{node}/ (fs); state/world-models/ and state/responsibilities/ are not read.',
    hint: 'move durable node state to <openprose-root>/state/world-model/{node}/',
  },
  'durable.receipts': {
    severity: 'warning',
    enforces:
      "decision durable-world-model-dir: the run's receipts/{node}.jsonl is its part of the " +
      "node's one chain, so its lines appear, in order, in state/world-model/{node}/receipts.jsonl.",
    hint: 'append each receipt to the durable receipts.jsonl on durable commit',
  },
  'durable.versions': {
    severity: 'warning',
    enforces:
      'fs "Directory Structure": versions/ holds versions named by their ContentAddress (sha256:<hex> or ' +
      'sha256_<hex>, optionally .bin: OPWM1 bytes, or a directory of the files); each rendered version is stored (decision durable-world-model-dir).',
    hint: 'store each committed version under versions/ named by its address',
  },
  'durable.published': {
    severity: 'warning',
    enforces:
      "decision durable-world-model-dir: state/world-model/{node}/published/ holds the node's " +
      'last rendered version: its OPWM1 address equals the last non-failed @atomic of the durable ledger.',
    hint: 'publish the last rendered version to published/ on durable commit',
  },
  ...CURRENT_STATE_RULES,
} as const satisfies RuleTable;

/** Rules the v0 run-dir and world-model verifiers already define, reported here with the same meaning. */
const SHARED = [
  'wm.receipts-file',
  'wm.receipts-canonical',
  'wm.version-format',
  'wm.version-hash',
  'wm.version-missing',
  'wm.published-match',
  'wm.orphan',
  'wm.unreadable',
] as const;

export const SHARED_RULE_IDS: readonly string[] = [
  'run.id',
  'import.name',
  ...SHARED,
  ...Object.keys(prefixRules('wm.', LEDGER_RULES)),
];

export const CURRENT_RUN_RULES = {
  ...CURRENT_RUN_OWN_RULES,
  'run.id': RUN_DIR_RULES['run.id'],
  'import.name': RUN_DIR_RULES['import.name'],
  ...(Object.fromEntries(SHARED.map((id) => [id, WORLD_MODEL_RULES[id]])) as Pick<
    typeof WORLD_MODEL_RULES,
    (typeof SHARED)[number]
  >),
  ...prefixRules('wm.', LEDGER_RULES),
} as const satisfies RuleTable;

export type CurrentRunRuleId = keyof typeof CURRENT_RUN_RULES;
