import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/run-dirs/', import.meta.url));
export const RUN_ID = '20260115-143052-a7b3c9';

export interface FixtureCopy {
  /** The copied `.prose/` directory. */
  prose: string;
  /** The copied home directory (holding `.prose/agents/mentor/`). */
  home: string;
  /** `runs/{id}/` inside `prose`. */
  run: string;
  /** The import `imports/alice--summarizer/` inside `run`. */
  imp: string;
  /** Replaces `from` by `to` in a file (relative to `prose`); throws when `from` is absent, so a mutation cannot silently miss. */
  edit(rel: string, from: string | RegExp, to: string): void;
  write(rel: string, text: string): void;
  cleanup(): void;
}

/** A fresh copy of spec/fixtures/run-dirs/valid (and valid-home) in its own temp dir. */
export function copyValid(): FixtureCopy {
  const root = mkdtempSync(join(tmpdir(), 'prose-verify-'));
  const prose = join(root, 'project', '.prose');
  const home = join(root, 'home');
  cpSync(join(FIXTURES, 'valid', '.prose'), prose, { recursive: true });
  cpSync(join(FIXTURES, 'valid-home'), home, { recursive: true });
  const run = join(prose, 'runs', RUN_ID);
  return {
    prose,
    home,
    run,
    imp: join(run, 'imports', 'alice--summarizer'),
    edit(rel, from, to) {
      const p = join(prose, rel);
      const text = readFileSync(p, 'utf8');
      const next = text.replace(from, to);
      if (next === text) throw new Error(`mutation of ${rel} matched nothing: ${String(from)}`);
      writeFileSync(p, next);
    },
    write(rel, text) {
      writeFileSync(join(prose, rel), text);
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
