import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '../../../src/canon/canonical-json.ts';
import { receiptHash } from '../../../src/canon/validate-receipt.ts';

export const CURRENT_FIXTURES = fileURLToPath(new URL('../../fixtures/current-runs/', import.meta.url));
export const RUN_ID = '20260317-143052-a7b3c9';
export const VALID_RUN = join(CURRENT_FIXTURES, 'valid', 'runs', RUN_ID);

type Receipt = Record<string, any>;

/** A copy of spec/fixtures/current-runs/valid in a temp dir, with edits that cannot silently miss. */
export interface CurrentCopy {
  /** The copied `<openprose-root>`. */
  root: string;
  /** runs/{id}/ inside it (changes when `renameRun` is called). */
  run: string;
  /** Replaces `from` by `to` in a file relative to the run; throws when `from` is absent. */
  edit(rel: string, from: string | RegExp, to: string): void;
  write(rel: string, content: string | Uint8Array): void;
  remove(rel: string): void;
  renameRun(name: string): void;
  /**
   * Rewrites receipt `index` of receipts/{node}.jsonl, and the same line of the durable receipts.jsonl, with
   * `change`; the content_hash is stamped again unless `restamp` is false. `text` replaces the canonical line.
   */
  editReceipt(
    node: string,
    index: number,
    change: (r: Receipt) => void,
    opts?: { restamp?: boolean; text?: (r: Receipt) => string },
  ): void;
  cleanup(): void;
}

export function copyCurrent(): CurrentCopy {
  const base = mkdtempSync(join(tmpdir(), 'prose-current-'));
  const root = join(base, 'root');
  cpSync(join(CURRENT_FIXTURES, 'valid'), root, { recursive: true });
  const c: CurrentCopy = {
    root,
    run: join(root, 'runs', RUN_ID),
    edit(rel, from, to) {
      const p = join(c.run, rel);
      const text = readFileSync(p, 'utf8');
      const next = text.replace(from, to);
      if (next === text) throw new Error(`edit of ${rel} matched nothing: ${String(from)}`);
      writeFileSync(p, next);
    },
    write(rel, content) {
      mkdirSync(dirname(join(c.run, rel)), { recursive: true });
      writeFileSync(join(c.run, rel), content);
    },
    remove: (rel) => rmSync(join(c.run, rel), { recursive: true, force: true }),
    renameRun(name) {
      const next = join(root, 'runs', name);
      renameSync(c.run, next);
      c.run = next;
    },
    editReceipt(node, index, change, opts = {}) {
      const files = [`receipts/${node}.jsonl`, `../../state/world-model/${node}/receipts.jsonl`];
      const old = readFileSync(join(c.run, files[0]!), 'utf8').split('\n')[index]!;
      const r = JSON.parse(old) as Receipt;
      change(r);
      if (opts.restamp !== false) r.content_hash = receiptHash(r);
      const line = opts.text ? opts.text(r) : canonicalJson(r);
      for (const f of files) c.edit(f, old, line);
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
  return c;
}
