import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { BackendEnv } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS, type Decisions } from '../../src/core/decisions.ts';

/** A fresh project and home directory under one temp root; `cleanup` removes it all. */
export function tempEnv(decisions: Decisions = DEFAULT_DECISIONS): BackendEnv & { root: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'prose-env-'));
  const env = { projectDir: join(root, 'project'), homeDir: join(root, 'home'), decisions, storageKey: root };
  mkdirSync(env.projectDir);
  mkdirSync(env.homeDir);
  return { ...env, root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file under `dir`, relative, sorted: to prove what a call did or did not create. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}
