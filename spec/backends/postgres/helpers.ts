import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend, BackendEnv, Row } from '../../../src/core/backend.ts';
import { DEFAULT_DECISIONS, type Decisions } from '../../../src/core/decisions.ts';

/** The real server specs use, or undefined (they then report themselves skipped with the reason). */
export function testPgUrl(): string | undefined {
  return process.env.PROSE_STATE_TEST_PG_URL || undefined;
}

export function skipReason(what: string): string {
  return `skip: PROSE_STATE_TEST_PG_URL unset, so ${what} is not checked on a real PostgreSQL server (run under scripts/with-postgres.sh; CI always sets it)`;
}

/** A fresh env in its own temp dir; `cleanup` removes it. */
export function tempEnv(decisions: Partial<Decisions> = {}): BackendEnv & { cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'prose-pg-spec-'));
  return {
    projectDir: join(dir, 'project'),
    homeDir: join(dir, 'home'),
    decisions: { ...DEFAULT_DECISIONS, ...decisions },
    storageKey: dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const VM = { role: 'vm' } as const;
export const sub = (binding: string, executionId: number | null = null) =>
  ({ role: 'subagent', binding, executionId }) as const;
export const agent = (name: string) => ({ role: 'subagent', agent: name }) as const;

/** The backend's postgres storage view (layout queries); throws when the backend has none. */
export function pgView(b: Backend): { query(sql: string, params?: unknown[]): Promise<Row[]> } {
  const view = b.storage?.();
  if (view?.kind !== 'postgres') throw new Error('expected a postgres storage view');
  return view;
}
