import { APPEND_RULES } from './current-run/append-rules.ts';
import { CURRENT_RUN_OWN_RULES, SHARED_RULE_IDS } from './current-run/rules.ts';
import { renderRuleTable } from './kit/rule-table.ts';
import { REACTOR_RULES } from './reactor/rules.ts';
import { RUN_DIR_RULES } from './run-dir/rules.ts';
import { STATE_DB_RULES } from './state-db/rules.ts';
import { TREE_RULES } from './kit/tree-rules.ts';
import { WORLD_MODEL_RULES } from './world-model/rules.ts';

/**
 * docs/verify-rules.md, rendered from the rule tables so the two cannot drift (a spec compares them). Regenerate:
 *   node --import tsx -e "import('./src/verify/render-verify-rules.ts').then((m) => process.stdout.write(m.renderVerifyRules()))" > docs/verify-rules.md
 */
export function renderVerifyRules(): string {
  return `# verify rules

\`prose-state verify PATH\` checks run state an OpenProse VM already wrote. Every finding names one of these rules,
with its severity (error: the spec is broken; warning: only suspicious), where it is (file:line, or table[row]) and a
hint. The choices behind them are the \`verify-*\` rows of docs/decisions.md. Generated from the rule tables
src/verify/*/rules.ts: do not edit by hand.

Usage: \`prose-state verify PATH [--format json] [--home DIR] [--threshold BYTES] [--kind KIND] [--edition v0|current]
[--since OLD]\`. Exit 0 no error finding, 1 an error finding, 2 usage, 3 no verifier recognises PATH or its edition
cannot be told. From code: \`await verifyPath(path, { homeDir })\` (src/verify/registry.ts) returns
\`{ kind, findings, edition }\`.

## Which edition is judged

Each tree is judged by the text of its own edition (docs/editions.md), and every report says which and how: the text
report on the line before the summary (\`verify: edition current (detected: vm.log.md in the run directory)\`), the
JSON report as \`edition: {edition, source, evidence}\`, \`source\` being \`detected\`, \`given\` (\`--edition\`) or
\`kind\` (implied by \`--kind\`). The marker files decide (src/verify/edition/tree-edition.ts):

| the tree | edition | verified as |
|---|---|---|
| a directory holding \`vm.log.md\` | current | \`current-run\`, one run (imports too) |
| a directory holding \`state.md\` or \`state.db\` | v0 | \`run-dir\` |
| a directory holding both, or neither but a run's files (\`root.prose.md\`, \`program.prose\`, \`compiled-intent.json\`) | none: refused, exit 3, until \`--edition\` names one | |
| \`.prose/\`, or a project holding one | v0 | \`prose-dir\` |
| a directory holding \`runs/\`: its runs' markers decide; runs of both editions are refused; none and a \`state/\` is current, none and no \`state/\` v0 (as before) | | \`current-run\` of the whole \`<openprose-root>\` (every run, then the durable \`state/\`), or \`prose-dir\` |
| a directory holding \`state/world-model/\` or \`state/agents/\` and no \`runs/\` | current | \`current-run\` of the durable state |
| anything else (a SQLite file, a Reactor directory, a transcript) | the verifier's own: \`state-db\` and \`world-model\` v0; \`reactor\` and \`transcript\` none | the first verifier whose detection accepts it |

\`--edition v0|current\` overrides the markers (a tree of both is then read as that edition's run or root); with
\`--kind\` it must be the kind's edition. \`--subagent-output\` checks the v0 reply only.

## Every tree on disk (kinds \`run-dir\`, \`prose-dir\`, \`reactor\`, \`world-model\`)

verify reads only what it owns: regular files and directories inside the path it was given, never following a link
and never opening a FIFO, socket or device (src/verify/kit/owned-files.ts). It reports each of those it meets, and
does not read a file over the size cap (\`maxFileBytes\` in the options, default 64 MiB), so nothing it prints
quotes bytes from outside the tree and no tree can make it hang.

${renderRuleTable(TREE_RULES)}

## Run directories and .prose/ (kinds \`run-dir\`, \`prose-dir\`)

${renderRuleTable(RUN_DIR_RULES)}

## SQLite state (kind \`state-db\`; also state.db runs and agents.db inside a .prose/)

${renderRuleTable(STATE_DB_RULES)}

## Receipt ledgers

A receipt ledger is checked by one checker (src/verify/kit/check-ledger.ts) whichever directory holds it: a Reactor
\`receipts.json\` reports its rules as \`reactor.*\`, a run directory's \`receipts/{node}.jsonl\` as \`wm.*\`; the rules
after the prefix (\`receipt.*\`, \`chain.*\`, \`status.*\`) mean the same in both, so the same ledger gets the same
findings. docs/canon.md and docs/world-model.md tell the two layouts apart.

## Reactor state directories (kind \`reactor\`: \`receipts.json\` and \`world-models/\`)

${renderRuleTable(REACTOR_RULES)}

## World models of a run directory (kind \`world-model\`; also checked with every \`run-dir\`)

${renderRuleTable(WORLD_MODEL_RULES)}

## Current-edition runs (kind \`current-run\`: \`<openprose-root>/runs/{id}/\` with \`vm.log.md\`, or the root)

Also reports, with the meaning given above: ${SHARED_RULE_IDS.map((id) => `\`${id}\``).join(', ')}.

${renderRuleTable(CURRENT_RUN_OWN_RULES)}

## Append-only files (\`verify --since OLD PATH\`, current edition)

OLD is a copy of the same run directory (or the same \`<openprose-root>\`) taken earlier: \`cp -r\` of it before the
next step, say. Every \`vm.log.md\` and \`receipts/*.jsonl\` OLD holds (in each run and import; from a root also
\`state/world-model/{node}/receipts.jsonl\`) must still begin with OLD's lines, byte for byte. Lines appended since
are fine; the first line changed, removed or cut is a finding naming PATH's file and line. PATH is verified in full
as well; OLD is only read for those files (src/verify/current-run/append-only.ts).

${renderRuleTable(APPEND_RULES)}
`;
}
