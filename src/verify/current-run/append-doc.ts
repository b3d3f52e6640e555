import { renderRuleTable } from '../kit/rule-table.ts';
import { APPEND_RULES } from './append-rules.ts';

/** docs/verify-rules.md's section on `verify --since` (src/verify/current-run/append-only.ts). */
export function renderAppendSection(): string {
  return `## Append-only files (\`verify --since OLD PATH\`, current edition)

OLD is a copy of the same run directory (or the same \`<openprose-root>\`) taken earlier: \`cp -r\` of it before the
next step, say. Every \`vm.log.md\` and \`receipts/*.jsonl\` OLD holds (in each run and import; from a root also
\`state/world-model/{node}/receipts.jsonl\`) must still begin with OLD's lines, byte for byte. Lines appended since
are fine; the first line changed, removed or cut is a finding naming PATH's file and line. PATH is verified in full
as well; OLD is only read for those files (src/verify/current-run/append-only.ts).

${renderRuleTable(APPEND_RULES)}`;
}
