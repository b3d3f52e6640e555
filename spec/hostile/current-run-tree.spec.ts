import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { Finding } from '../../src/verify/finding.ts';
import { verifyPath, type VerifyResult } from '../../src/verify/registry.ts';
import { bounded } from './bounded-verify.ts';
import { copyCurrent, RUN_ID, type CurrentCopy } from '../verify/current-run/current-copy.ts';

// Issue 34 for the current edition's layout (<openprose-root>/runs/{id}/): the current-run verifier lists and reads
// through src/verify/kit/owned-files.ts and scans its tree first, so each hostile entry is one tree.* finding.
const SECRET = 'OUTSIDE-THE-CURRENT-TREE-41c9';
const RUN = `runs/${RUN_ID}`;

/** A valid current root copy plus, beside it (outside the verified tree), a secret file. */
function hostile(): CurrentCopy & { outside: string; secret: string } {
  const c = copyCurrent();
  const outside = join(dirname(c.root), 'outside');
  mkdirSync(outside, { recursive: true });
  const secret = join(outside, 'secret.md');
  writeFileSync(secret, `# ${SECRET}\n`);
  return { ...c, outside, secret };
}

const only = (r: VerifyResult, rule: string) => r.findings.filter((f) => f.rule === rule);
const quotesOutside = (fs: Finding[]) => JSON.stringify(fs).includes(SECRET);
const about = (r: VerifyResult, file: string) => r.findings.filter((f) => f.file?.startsWith(file));

test('a published file linked outside the tree: one tree.symlink, not hashed, its target never quoted', async () => {
  const c = hostile();
  try {
    symlinkSync(c.secret, join(c.run, 'world-model/scout/x.md'));
    const r = await verifyPath(c.root);
    assert.is(r.kind, 'current-run');
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      [`${RUN}/world-model/scout/x.md`],
    );
    assert.equal(
      about(r, `${RUN}/world-model/scout`).map((f) => f.rule),
      ['tree.symlink'],
    );
    assert.not.ok(quotesOutside(r.findings));
  } finally {
    c.cleanup();
  }
});

test('a FIFO in workspace/: one tree.special-file, never opened', () => {
  const c = hostile();
  try {
    execFileSync('mkfifo', [join(c.run, 'workspace/scout/pipe.md')]);
    const r = bounded(c.root);
    assert.equal(
      r.findings.map((f) => [f.rule, f.file]),
      [['tree.special-file', `${RUN}/workspace/scout/pipe.md`]],
    );
  } finally {
    c.cleanup();
  }
});

test('a FIFO as a caller input: one tree.special-file, in bounded time (it was opened and blocked)', () => {
  const c = hostile();
  try {
    execFileSync('mkfifo', [join(c.run, 'world-model/caller/pipe.md')]);
    const r = bounded(c.root);
    assert.equal(
      only(r, 'tree.special-file').map((f) => f.file),
      [`${RUN}/world-model/caller/pipe.md`],
    );
  } finally {
    c.cleanup();
  }
});

test('a receipts ledger over the cap (set through VerifyOptions): one tree.too-large, and it is not read', async () => {
  const c = hostile();
  try {
    const ledger = join(c.run, 'receipts/scout.jsonl');
    const cap = statSync(ledger).size - 1;
    const r = await verifyPath(c.run, { maxFileBytes: cap });
    // Nothing that hangs on the ledger (the node's published dir, the log's markers for it) is reported either.
    assert.equal(
      r.findings.map((f) => [f.rule, f.file]),
      [['tree.too-large', 'receipts/scout.jsonl']],
    );
  } finally {
    c.cleanup();
  }
});

test('a run linked out of the root: one tree.symlink, the run outside never walked', async () => {
  const c = hostile();
  try {
    const away = join(c.outside, 'run');
    cpSync(c.run, away, { recursive: true });
    writeFileSync(join(away, 'world-model/scout/findings.md'), `# ${SECRET}\n`);
    symlinkSync(away, join(c.root, 'runs/20260318-090000-b4c5d6'));
    const r = await verifyPath(c.root);
    assert.is(r.kind, 'current-run');
    assert.equal(
      r.findings.map((f) => [f.rule, f.file]),
      [['tree.symlink', 'runs/20260318-090000-b4c5d6']],
    );
    assert.not.ok(quotesOutside(r.findings));
  } finally {
    c.cleanup();
  }
});

test('state/ linked out of the root: one tree.symlink, the durable store outside never read', async () => {
  const c = hostile();
  try {
    const away = join(c.outside, 'state');
    cpSync(join(c.root, 'state'), away, { recursive: true });
    writeFileSync(join(away, 'world-model/scout/receipts.jsonl'), `${SECRET}\n`);
    rmSync(join(c.root, 'state'), { recursive: true });
    symlinkSync(away, join(c.root, 'state'));
    const r = await verifyPath(c.root);
    assert.equal(
      r.findings.map((f) => [f.rule, f.file]),
      [['tree.symlink', 'state']],
    );
    assert.not.ok(quotesOutside(r.findings));
  } finally {
    c.cleanup();
  }
});

test.run();
