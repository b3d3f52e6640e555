import { renderAppendSection } from './current-run/append-doc.ts';
import { CURRENT_RUN_OWN_RULES, SHARED_RULE_IDS } from './current-run/rules.ts';
import { renderEditionSection } from './edition/edition-doc.ts';
import { renderRuleTable } from './kit/rule-table.ts';
import { REACTOR_RULES } from './reactor/rules.ts';
import { RUN_DIR_RULES } from './run-dir/rules.ts';
import { STATE_DB_RULES } from './state-db/rules.ts';
import { PG_RULE_IDS } from './postgres/rules.ts';
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

${renderEditionSection()}

## Every tree on disk (kinds \`run-dir\`, \`prose-dir\`, \`reactor\`, \`world-model\`)

verify reads only what it owns: regular files and directories inside the path it was given, never following a link
and never opening a FIFO, socket or device (src/verify/kit/owned-files.ts). It reports each of those it meets, and
does not read a file over the size cap (\`--max-file-bytes N\`, \`maxFileBytes\` in the options; default 64 MiB), so nothing it prints
quotes bytes from outside the tree and no tree can make it hang.

${renderRuleTable(TREE_RULES)}

## Run directories and .prose/ (kinds \`run-dir\`, \`prose-dir\`)

${renderRuleTable(RUN_DIR_RULES)}

## SQLite state (kind \`state-db\`; also state.db runs and agents.db inside a .prose/, and \`current-sql-run\`: a current SQLite run directory)

${renderRuleTable(STATE_DB_RULES)}

## PostgreSQL schemas (kind \`postgres\`: \`verify postgres:URL\` or \`verify postgres:env\`)

Schema \`openprose\` of either edition (docs/postgres.md), told by \`x_prose_meta\`'s edition row or by
\`bindings.kind\` (v0) / \`bindings.binding\` (current), or given with \`--edition\`. \`postgres:env\` takes the URL from
the edition's env file (v0 \`.prose/.env\`, current \`.env\`; both without \`--edition\`, refused when they differ), then
the shell (decision \`verify-postgres-env\`). It is read inside \`BEGIN TRANSACTION READ ONLY\` with a 10 s statement timeout and
rolled back; the URL is never printed (findings name \`postgres:(URL not shown)\`). Chains are per node in the current
edition and per run and node in v0 (decision \`verify-postgres\`). Reports, with the meaning given in the SQLite
section above: ${PG_RULE_IDS.map((id) => `\`${id}\``).join(', ')}.

## Receipt ledgers

A receipt ledger is checked by one checker (src/verify/kit/check-ledger.ts) whichever directory holds it: a Reactor
\`receipts.json\` reports its rules as \`reactor.*\`, a run directory's \`receipts/{node}.jsonl\` as \`wm.*\`; the rules
after the prefix (\`receipt.*\`, \`chain.*\`, \`status.*\`) mean the same in both, so the same ledger gets the same
findings. docs/canon.md and docs/world-model.md tell the two layouts apart.

## Reactor state directories (kind \`reactor\`: \`receipts.json\` and \`world-models/\`)

${renderRuleTable(REACTOR_RULES)}

## World models of a run directory (kind \`world-model\`; also checked with every \`run-dir\`, and for each run of a \`prose-dir\`)

${renderRuleTable(WORLD_MODEL_RULES)}

## Current-edition runs (kind \`current-run\`: \`<openprose-root>/runs/{id}/\` with \`vm.log.md\`, or the root)

Also reports, with the meaning given above: ${SHARED_RULE_IDS.map((id) => `\`${id}\``).join(', ')}.

${renderRuleTable(CURRENT_RUN_OWN_RULES)}

${renderAppendSection()}
`;
}
