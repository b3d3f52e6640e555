import { DEFAULT_DECISIONS } from '../decisions.ts';
import { EDITION_NAMES } from '../editions.ts';
import type { DecisionRow } from './decision-row.ts';

/**
 * docs/decisions.md: the one decisions table, grouped by area, with the configurable defaults first. The rows are
 * data (the suite's decisions/*.yaml); whoever may read files loads them and passes them in.
 */
export function renderDecisions(rows: readonly DecisionRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [
    '# Decisions',
    '',
    'Where the OpenProse spec is ambiguous or wrong, prose-state pins one behaviour. Every row says what the spec',
    'says, what we chose, and why. Generated from `conformance/decisions/*.yaml` by `scripts/gen-decisions.ts`; do not',
    'edit by hand. Every report header prints the configurable values a run used (`--decision KEY=VALUE`).',
    '',
    'The edition column says which text of the spec a row is for ([editions.md](editions.md)): `v0` (the January',
    '2026 seeds), `current` (seed 004 and the texts it points to), or both.',
    '',
    '## Configurable values',
    '',
    '| setting | default |',
    '|---|---|',
    ...Object.entries(DEFAULT_DECISIONS).map(([k, v]) => `| \`${k}\` | ${v} |`),
    '',
  ];
  const areas = [...new Set(rows.map((r) => r.area))];
  for (const area of areas) {
    out.push(`## ${area}`, '', '| id | edition | the spec says | our choice | why |', '|---|---|---|---|---|');
    for (const r of rows.filter((x) => x.area === area)) {
      const id = `\`${r.id}\`${r.setting ? ` (\`${r.setting}\`)` : ''}`;
      out.push(`| ${id} | ${editionCell(r)} | ${cell(r.spec)} | ${cell(r.choice)} | ${cell(r.why)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** `both` for a row of no edition or of every edition, else the editions it names. */
function editionCell(row: DecisionRow): string {
  const named = row.editions ?? EDITION_NAMES;
  return EDITION_NAMES.every((e) => named.includes(e)) ? 'both' : named.join(', ');
}
