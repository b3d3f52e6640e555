import type { Severity } from '../finding.ts';

/**
 * The one shape of a rule table: rule id -> severity, the spec text it enforces and (optionally) the default hint.
 * Severity lives here, never at the call site, so a rule cannot be an error in one place and a warning in another
 * (the one exception, reactor.atomic-bin, passes its severity with a reason).
 */
export interface Rule {
  severity: Severity;
  /** The spec text (quoted or paraphrased, with its document) the rule enforces. */
  enforces: string;
  /** The default hint: what to do about it. */
  hint?: string;
  /** What sets the rule off, where its id and `enforces` leave it open. */
  when?: string;
}

export type RuleTable<R extends string = string> = Readonly<Record<R, Rule>>;

/** The same rules under ids prefixed with `prefix` (the receipt-ledger rules appear as reactor.* and wm.*). */
export function prefixRules<P extends string, R extends string>(prefix: P, rules: RuleTable<R>): RuleTable<`${P}${R}`> {
  return Object.fromEntries(Object.entries(rules).map(([id, r]) => [`${prefix}${id}`, r])) as RuleTable<`${P}${R}`>;
}

/** A markdown table of `rules` (rule | severity | enforces | hint), as docs/verify-rules.md shows them. */
export function renderRuleTable(rules: RuleTable): string {
  return [
    '| rule | severity | enforces | hint |',
    '|------|----------|----------|------|',
    ...Object.entries(rules).map(
      ([id, r]) => `| \`${id}\` | ${r.severity} | ${esc(r.enforces)} | ${esc(r.hint ?? '')} |`,
    ),
  ].join('\n');
}

const esc = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
