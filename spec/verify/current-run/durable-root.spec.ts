import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyCurrent } from './current-copy.ts';

const BIN = 'sha256_877ab74fc61c4b4e1c1387276a98cdea052054a92175e2f0691d76c30560e792.bin';

test('an <openprose-root> holding only durable state/ is current, and each node is checked against its own ledger', async () => {
  const c = copyCurrent();
  try {
    rmSync(join(c.root, 'runs'), { recursive: true });
    const clean = await verifyPath(c.root);
    assert.equal([clean.kind, clean.edition.edition, clean.findings], ['current-run', 'current', []]);
    c.edit('../../state/world-model/scout/published/findings.md', 'Orbit', 'Orbital');
    const { findings } = await verifyPath(c.root);
    assert.equal(
      findings.map((f) => `${f.rule} ${f.file}`),
      ['durable.published state/world-model/scout/published'],
    );
  } finally {
    c.cleanup();
  }
});

test('a durable node no run names: its chain, its versions/ and published/ are checked (the nodes runs name, by them)', async () => {
  const c = copyCurrent();
  try {
    // Without its run, scout's durable node stands alone: a version missing from versions/ is found from the root.
    rmSync(join(c.root, 'runs'), { recursive: true });
    c.remove(`../../state/world-model/scout/versions/${BIN}`);
    const { findings } = await verifyPath(c.root);
    assert.equal(
      findings.map((f) => `${f.rule} ${f.file}:${f.line}`),
      ['durable.versions state/world-model/scout/receipts.jsonl:1'],
    );
  } finally {
    c.cleanup();
  }
});

test('a durable published/ with no rendered receipt in its ledger is durable.node', async () => {
  const c = copyCurrent();
  try {
    rmSync(join(c.root, 'runs'), { recursive: true });
    c.write('../../state/world-model/alerts/published/alert.md', '# Alert\n');
    const { findings } = await verifyPath(c.root);
    assert.equal(
      findings.map((f) => `${f.rule} ${f.file}`),
      ['durable.node state/world-model/alerts/published'],
    );
  } finally {
    c.cleanup();
  }
});

test.run();
