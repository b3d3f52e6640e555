import { posix } from 'node:path';
import type { Finding, Severity } from '../finding.ts';
import type { Rule, RuleTable } from './rule-table.ts';

/** Where a finding points and what to do: everything of a Finding but its rule, severity and message. */
export type Place = Omit<Finding, 'rule' | 'severity' | 'message'>;

/**
 * The one way to make a finding: severity and the default hint come from the rule's table; `severity` overrides
 * it only where the rule itself says the severity depends on what was found. Places left undefined are omitted.
 */
export function finding<R extends string>(
  rules: RuleTable<R>,
  rule: R,
  message: string,
  place: Place = {},
  severity?: Severity,
): Finding {
  const info: Rule | undefined = rules[rule]; // undefined only for a parser rule a table lacks (a spec forbids that)
  const f: Finding = { rule, severity: severity ?? info?.severity ?? 'error', message };
  for (const [k, v] of Object.entries(place)) if (v !== undefined) (f as unknown as Record<string, unknown>)[k] = v;
  if (f.hint === undefined && info?.hint !== undefined) f.hint = info.hint;
  return f;
}

/**
 * The one collector: findings for one rule table. `at(dir)` gives a sink whose file paths are prefixed, so a nested
 * run (runs/{id}/, imports/{h}--{s}/) reports paths from the verified root.
 */
export class FindingSink<R extends string> {
  constructor(
    private readonly rules: RuleTable<R>,
    readonly out: Finding[] = [],
    private readonly prefix = '',
  ) {}

  at(dir: string): FindingSink<R> {
    return new FindingSink(this.rules, this.out, this.path(dir.endsWith('/') ? dir : `${dir}/`));
  }

  /** The same place, reporting the rules of another table (a run directory holding a state.db, say). */
  withRules<S extends string>(rules: RuleTable<S>): FindingSink<S> {
    return new FindingSink(rules, this.out, this.prefix);
  }

  /** A path relative to the sink, as the verified root sees it. */
  path(rel: string): string {
    // `runs/{id}/` + `../../state/...` (a run's durable files) is shown as the root sees it: `state/...`.
    return this.prefix && rel.startsWith('../') ? posix.normalize(this.prefix + rel) : this.prefix + rel;
  }

  /** Adds a finding; a place without a file or table points at the sink's own directory. */
  add(rule: R, message: string, where: Pick<Place, 'file' | 'line' | 'table' | 'row'> = {}, hint?: string): void {
    const at: Place = {};
    if (where.file !== undefined) at.file = this.path(where.file);
    else if (where.table === undefined && this.prefix) at.file = this.prefix.replace(/\/$/, '');
    at.line = where.line;
    at.table = where.table;
    at.row = where.row;
    at.hint = hint;
    this.out.push(finding(this.rules, rule, message, at));
  }
}
