import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { AgentLocation } from '../../core/model.ts';

/**
 * How one agent location is keyed in openprose.agents and agent_segments: name, scope and the run an execution-scoped
 * agent belongs to (decision pg-agent-scope-key), plus in v0 the custom scope's path. The current edition has no
 * custom scope (filesystem.md "Memory Scoping"; decision current-agent-scopes) and its tables no path column.
 */
export class AgentSql {
  private readonly withPath: boolean;

  constructor(private readonly edition: Edition) {
    this.withPath = edition === 'v0';
  }

  /** The bound values, `$1`.. in order: agent, scope, run (execution scope only), path (v0 custom scope only). */
  key(loc: AgentLocation): (string | null)[] {
    if (loc.scope === 'custom' && !this.withPath)
      throw new ProseError('E_UNSUPPORTED', `custom-scope agents are not in the ${this.edition} edition`, {
        location: { field: 'scope' },
        hint: 'use persist: true, project or user',
      });
    const key = [loc.agent, loc.scope, loc.scope === 'execution' ? (loc.run ?? null) : null];
    return this.withPath ? [...key, loc.scope === 'custom' ? (loc.path ?? null) : null] : key;
  }

  /** The number of the first parameter after the key. */
  get next(): number {
    return this.withPath ? 5 : 4;
  }

  /** The key's columns, for an INSERT column list. */
  columns(nameColumn: string): string {
    return `${nameColumn}, scope, run_id${this.withPath ? ', path' : ''}`;
  }

  /** The key's values as typed parameters, for an INSERT ... SELECT. */
  marks(): string {
    return `$1::text, $2::text, $3::text${this.withPath ? ', $4::text' : ''}`;
  }

  /** The WHERE clause matching one location. */
  where(nameColumn: string): string {
    const base = `${nameColumn} = $1::text AND scope = $2::text AND COALESCE(run_id, '') = COALESCE($3::text, '')`;
    return this.withPath ? `${base} AND COALESCE(path, '') = COALESCE($4::text, '')` : base;
  }

  /** The ON CONFLICT target: the agents_key index's expressions. */
  conflict(): string {
    return `(name, scope, COALESCE(run_id, '')${this.withPath ? `, COALESCE(path, '')` : ''})`;
  }
}
