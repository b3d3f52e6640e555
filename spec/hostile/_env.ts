import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { Actor } from '../../src/core/actor.ts';
import type { BackendEnv } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { ProseError } from '../../src/core/errors.ts';

/** A fresh project and home directory of this spec's own; `cleanup` removes it. */
export function freshEnv(): BackendEnv & { cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'prose-corrupt-'));
  const env = {
    projectDir: join(root, 'project'),
    homeDir: join(root, 'home'),
    decisions: DEFAULT_DECISIONS,
    storageKey: root,
  };
  mkdirSync(env.projectDir);
  mkdirSync(env.homeDir);
  return { ...env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export const sub = (binding: string, executionId: number | null = null): Actor => ({
  role: 'subagent',
  binding,
  executionId,
});
export const agent = (name: string): Actor => ({ role: 'subagent', agent: name });

/**
 * The call must fail with a typed E_CORRUPT or E_FORMAT whose location or message names `file` (a path fragment):
 * never a crash (TypeError, SyntaxError), never a silently different answer.
 */
export async function assertCorrupt(what: string, call: () => Promise<unknown>, file: string): Promise<void> {
  let result: unknown;
  try {
    result = await call();
  } catch (err) {
    assert.instance(
      err,
      ProseError,
      `${what}: threw a ${(err as Error)?.constructor?.name} instead of a ProseError: ${(err as Error)?.message}`,
    );
    const e = err as ProseError;
    assert.ok(e.code === 'E_CORRUPT' || e.code === 'E_FORMAT', `${what}: ${e.code} ${e.message}`);
    const where = `${e.location?.file ?? ''} ${e.location?.field ?? ''} ${e.message}`;
    assert.ok(where.includes(file), `${what}: the error does not name ${file}: ${where}`);
    return;
  }
  assert.unreachable(`${what}: answered ${JSON.stringify(result)?.slice(0, 200)} from a corrupt file`);
}

/**
 * A check that documents a backend bug found by this suite (see the report of issue 9): it passes while the bug
 * reproduces (the check's assertion fails) and fails once the bug is gone, so the marker is removed and the check
 * becomes a plain test. Errors that are not assertion failures (a crash of the spec itself) still fail.
 */
export async function expectBug(bug: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (err) {
    if (err instanceof assert.Assertion) return;
    throw err;
  }
  assert.unreachable(`known bug no longer reproduces, turn this into a plain test: ${bug}`);
}
