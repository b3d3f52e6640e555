import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson } from '../../../src/canon/canonical-json.ts';
import { artifactAddress } from '../../../src/canon/opwm1.ts';
import { receiptHash } from '../../../src/canon/validate-receipt.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyCurrent, CURRENT_FIXTURES, RUN_ID } from './current-copy.ts';

const FACETED = join(CURRENT_FIXTURES, 'faceted');
const rulesOf = (fs: { rule: string }[]) => [...new Set(fs.map((f) => f.rule))].sort();

/** A copy of the faceted root, with scout's receipt (run and durable ledger alike) rewritten by `change`. */
function facetedCopy(change?: (r: Record<string, any>) => void): { root: string; run: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), 'prose-faceted-'));
  const root = join(base, 'root');
  cpSync(FACETED, root, { recursive: true });
  const run = join(root, 'runs', RUN_ID);
  if (change) {
    const files = [join(run, 'receipts/scout.jsonl'), join(root, 'state/world-model/scout/receipts.jsonl')];
    const r = JSON.parse(readFileSync(files[0]!, 'utf8'));
    change(r);
    r.content_hash = receiptHash(r);
    for (const f of files) writeFileSync(f, `${canonicalJson(r)}\n`);
  }
  return { root, run, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

test('a faceted node (published/<facet>/ subtrees, one token per facet beside @atomic) verifies clean', async () => {
  const root = await verifyPath(FACETED);
  assert.equal([root.kind, root.findings], ['current-run', []]);
  assert.equal((await verifyPath(join(FACETED, 'runs', RUN_ID))).findings, []);
});

test('a facet subtree without its token is wm.facets, at the receipt', async () => {
  const c = facetedCopy((r) => void delete r.fingerprints.moves);
  try {
    const { findings } = await verifyPath(c.run);
    assert.equal(rulesOf(findings), ['wm.facets']);
    assert.equal(
      findings.map((f) => `${f.file}:${f.line} ${f.severity}`),
      ['receipts/scout.jsonl:1 warning'],
    );
    assert.match(findings[0]!.message, /world-model\/scout\/published\/moves\/ has no "moves" token/);
  } finally {
    c.cleanup();
  }
});

test('a file directly in published/ is no facet: wm.facets (and the edited node no longer hashes to .version)', async () => {
  const c = facetedCopy();
  try {
    writeFileSync(join(c.run, 'world-model/scout/published/notes.md'), '# Notes\n');
    const { findings } = await verifyPath(c.run);
    assert.equal(rulesOf(findings), ['wm.facets', 'wm.version-hash']);
    assert.ok(findings.some((f) => f.rule === 'wm.facets' && f.file === 'world-model/scout/published/notes.md'));
  } finally {
    c.cleanup();
  }
});

test('a .version that is the address of workspace/{node}/ is wm.workspace-fingerprint (a VM that fingerprinted the scratch)', async () => {
  const c = copyCurrent();
  try {
    const scratch = artifactAddress({ 'notes.md': readFileSync(join(c.run, 'workspace/scout/notes.md')) });
    c.write('world-model/scout/.version', `${scratch}\n`);
    const { findings } = await verifyPath(c.run);
    assert.equal(rulesOf(findings), ['wm.published-match', 'wm.version-hash', 'wm.workspace-fingerprint']);
    const hit = findings.find((f) => f.rule === 'wm.workspace-fingerprint')!;
    assert.is(hit.file, 'world-model/scout/.version');
    assert.match(hit.message, /the address of workspace\/scout\//);
  } finally {
    c.cleanup();
  }
});

test('a workspace holding the very bytes the VM published is no leak: nothing tells them apart', async () => {
  const c = copyCurrent();
  try {
    c.write('workspace/scout/findings.md', readFileSync(join(c.run, 'world-model/scout/findings.md')));
    c.remove('workspace/scout/notes.md');
    assert.equal((await verifyPath(c.run)).findings, []);
  } finally {
    c.cleanup();
  }
});

test.run();
