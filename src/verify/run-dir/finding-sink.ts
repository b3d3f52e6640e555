import type { Finding } from '../finding.ts';
import type { RuleInfo } from './rules.ts';

/** Where a finding points: a file (relative to the sink's prefix) and line, or a table and row. */
export interface Where {
  file?: string;
  line?: number;
  table?: string;
  row?: string;
}

/**
 * Collects findings for one rule table. Severity and the default hint come from the table; `at(dir)` gives a sink
 * whose file paths are prefixed, so a nested run (runs/{id}/, imports/{h}--{s}/) reports paths from the verified root.
 */
export class FindingSink<R extends string> {
  constructor(
    private readonly rules: Readonly<Record<R, RuleInfo>>,
    readonly out: Finding[] = [],
    private readonly prefix = '',
  ) {}

  at(dir: string): FindingSink<R> {
    return new FindingSink(this.rules, this.out, this.path(dir.endsWith('/') ? dir : `${dir}/`));
  }

  /** The same place, reporting the rules of another table (a run directory holding a state.db, say). */
  withRules<S extends string>(rules: Readonly<Record<S, RuleInfo>>): FindingSink<S> {
    return new FindingSink(rules, this.out, this.prefix);
  }

  /** A path relative to the sink, as the verified root sees it. */
  path(rel: string): string {
    return this.prefix + rel;
  }

  add(rule: R, message: string, where: Where = {}, hint?: string): void {
    const info = this.rules[rule];
    const f: Finding = { rule, severity: info.severity, message };
    if (where.file !== undefined) f.file = this.path(where.file);
    else if (where.table === undefined && this.prefix) f.file = this.prefix.replace(/\/$/, '');
    if (where.line !== undefined) f.line = where.line;
    if (where.table !== undefined) f.table = where.table;
    if (where.row !== undefined) f.row = where.row;
    f.hint = hint ?? info.hint;
    this.out.push(f);
  }
}
