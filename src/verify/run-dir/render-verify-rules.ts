import { STATE_DB_RULES } from '../state-db/rules.ts';
import { RUN_DIR_RULES, type RuleInfo } from './rules.ts';

/**
 * docs/verify-rules.md, rendered from the rule tables so the two cannot drift (a spec compares them). Regenerate:
 *   node --import tsx -e "import('./src/verify/run-dir/render-verify-rules.ts').then((m) => process.stdout.write(m.renderVerifyRules()))" > docs/verify-rules.md
 */
export function renderVerifyRules(): string {
  const table = (rules: Record<string, RuleInfo>) => [
    '| rule | severity | enforces | hint |',
    '|------|----------|----------|------|',
    ...Object.entries(rules).map(([id, r]) => `| \`${id}\` | ${r.severity} | ${esc(r.enforces)} | ${esc(r.hint)} |`),
  ].join('\n');
  return `# verify rules

\`prose-state verify PATH\` checks run state an OpenProse VM already wrote. Every finding names one of these rules,
with its severity (error: the spec is broken; warning: only suspicious), where it is (file:line, or table[row]) and a
hint. The choices behind them are the \`verify-*\` rows of docs/decisions.md. Generated from
src/verify/run-dir/rules.ts and src/verify/state-db/rules.ts: do not edit by hand.

Usage: \`prose-state verify PATH [--format json] [--home DIR] [--threshold BYTES] [--kind KIND]\`. Exit 0 no error
finding, 1 an error finding, 2 usage, 3 no verifier recognises PATH. From code: \`await verifyPath(path, { homeDir })\`
(src/verify/registry.ts) returns \`{ kind, findings }\`.

## Run directories and .prose/ (kinds \`run-dir\`, \`prose-dir\`)

${table(RUN_DIR_RULES)}

## SQLite state (kind \`state-db\`; also state.db runs and agents.db inside a .prose/)

${table(STATE_DB_RULES)}
`;
}

const esc = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
