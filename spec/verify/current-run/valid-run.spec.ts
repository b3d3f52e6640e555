import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { canonicalJson } from '../../../src/canon/canonical-json.ts';
import { receiptHash } from '../../../src/canon/validate-receipt.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pickVerifier, verifyPath } from '../../../src/verify/registry.ts';
import { FIXTURES, RUN_ID as V0_RUN_ID } from '../run-dir/fixture-copy.ts';
import { copyCurrent, CURRENT_FIXTURES, RUN_ID, VALID_RUN } from './current-copy.ts';

test('the hand-made current run verifies with no finding, detected as current-run', async () => {
  const r = await verifyPath(VALID_RUN);
  assert.is(r.kind, 'current-run');
  assert.equal(r.findings, []);
});

test('the <openprose-root> holding it is current-run too (not prose-dir), its findings under runs/{id}/', async () => {
  const root = join(CURRENT_FIXTURES, 'valid');
  const r = await verifyPath(root);
  assert.is(r.kind, 'current-run');
  assert.equal(r.findings, []);
  const c = copyCurrent();
  try {
    c.edit('vm.log.md', '3→ alerts', '4→ alerts');
    const { findings } = await verifyPath(c.root);
    assert.equal(
      findings.map((f) => `${f.rule} ${f.file}:${f.line}`),
      [`vmlog.order runs/${RUN_ID}/vm.log.md:6`],
    );
  } finally {
    c.cleanup();
  }
});

test("a second run continues each node's chain from the durable ledger (one chain per node)", async () => {
  const c = copyCurrent();
  try {
    const second = join(c.root, 'runs', '20260318-090000-b1c2d3');
    cpSync(c.run, second, { recursive: true });
    rmSync(join(second, 'world-model', 'scout'), { recursive: true }); // nothing moved: nothing published
    const log = readFileSync(join(second, 'vm.log.md'), 'utf8');
    writeFileSync(
      join(second, 'vm.log.md'),
      log.replace(RUN_ID, '20260318-090000-b1c2d3').replace('scout ✓ rendered', 'scout ∅ skipped'),
    );
    for (const node of ['scout', 'alerts']) {
      const prev = JSON.parse(readFileSync(join(second, 'receipts', `${node}.jsonl`), 'utf8'));
      const next: Record<string, any> = { ...prev, prev: prev.content_hash, status: 'skipped', semantic_diff: {} };
      next.cost = { ...prev.cost, tokens: { fresh: 0, reused: 0 } };
      next.content_hash = receiptHash(next);
      writeFileSync(join(second, 'receipts', `${node}.jsonl`), `${canonicalJson(next)}\n`);
      appendFileSync(join(c.root, 'state', 'world-model', node, 'receipts.jsonl'), `${canonicalJson(next)}\n`);
    }
    assert.equal((await verifyPath(second)).findings, []);
    assert.equal((await verifyPath(c.root)).findings, []);
  } finally {
    c.cleanup();
  }
});

test('a run-typed caller input named in upstream: verifies clean (fs "Run-Typed Inputs")', async () => {
  const c = copyCurrent();
  try {
    const subject = '# subject\n\nbinding: input\nsource: caller\ntype: run\n\n---\n\nrun: 20260306-112233-f4a5b6\n';
    c.write(
      'world-model/caller/subject.md',
      `${subject}path: <openprose-root>/runs/20260306-112233-f4a5b6\nstatus: complete\n`,
    );
    c.edit('vm.log.md', 'root:', 'upstream: [20260306-112233-f4a5b6]\nroot:');
    c.edit('vm.log.md', '2→ scout', '2→ [input] subject ✓\n3→ scout');
    c.edit('vm.log.md', '3→ alerts', '4→ alerts');
    assert.equal((await verifyPath(c.run)).findings, []);
  } finally {
    c.cleanup();
  }
});

test('an import repeats the run layout (fs "Nested Imports"): checked with the same rules, paths from the run', async () => {
  const c = copyCurrent();
  try {
    cpSync(VALID_RUN, join(c.run, 'imports', 'alice--watch'), { recursive: true });
    assert.equal((await verifyPath(c.run)).findings, []);
    c.edit('imports/alice--watch/world-model/scout/findings.md', 'Orbit', 'Orbital');
    const { findings } = await verifyPath(c.run);
    assert.equal(
      findings.map((f) => `${f.rule} ${f.file}`),
      ['wm.version-hash imports/alice--watch/world-model/scout'],
    );
  } finally {
    c.cleanup();
  }
});

test('a v0 run directory is still a run-dir and a v0 .prose/ a prose-dir; --kind current-run forces the current rules on it', async () => {
  const v0 = join(FIXTURES, 'valid', '.prose', 'runs', V0_RUN_ID);
  assert.is((await pickVerifier(v0))?.kind, 'run-dir');
  assert.is((await pickVerifier(join(FIXTURES, 'valid')))?.kind, 'prose-dir');
  const forced = await verifyPath(v0, { kind: 'current-run' });
  assert.is(forced.kind, 'current-run');
  assert.ok(forced.findings.some((f) => f.rule === 'vmlog.file' && f.file === 'vm.log.md'));
});

test('a directory holding both state.md and vm.log.md is not taken for a current run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-current-both-'));
  try {
    cpSync(VALID_RUN, dir, { recursive: true });
    writeFileSync(join(dir, 'state.md'), '# Execution State\n');
    assert.is.not((await pickVerifier(dir))?.kind, 'current-run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
