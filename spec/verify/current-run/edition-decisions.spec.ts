import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../../src/canon/canonical-json.ts';
import { receiptHash } from '../../../src/canon/validate-receipt.ts';
import type { Finding } from '../../../src/verify/finding.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyCurrent, type CurrentCopy } from './current-copy.ts';

// One test per row of conformance/decisions/editions.yaml that verify reads, named by the row id: a fixture per
// reading the row accepts, and the break the row calls a finding. (render-reply has no reader here: the current
// render reply is the issue "The current edition's protocols".)

const LOG = 'vm.log.md';
const HEADING = '# run:20260317-143052-a7b3c9 market-watch\n';
const END = '---end 2026-03-17T14:35:22Z\n';

/** `rule severity file` of each finding of verifying the copy's run (or root), after `change`. */
async function found(change: (c: CurrentCopy) => void, root = false): Promise<string[]> {
  const c = copyCurrent();
  try {
    change(c);
    const { kind, findings } = await verifyPath(root ? c.root : c.run, { kind: 'current-run' });
    assert.is(kind, 'current-run');
    return findings.map(show);
  } finally {
    c.cleanup();
  }
}

const show = (f: Finding) => `${f.rule} ${f.severity} ${f.file ?? '-'}${f.line ? `:${f.line}` : ''}`;

/** Every finding of a change, with its message, for the assertions that look at the wording. */
async function messages(change: (c: CurrentCopy) => void, root = false): Promise<Finding[]> {
  const c = copyCurrent();
  try {
    change(c);
    return (await verifyPath(root ? c.root : c.run, { kind: 'current-run' })).findings;
  } finally {
    c.cleanup();
  }
}

/** alerts fails instead of skipping: its receipt is failed, the log marks it ✗ no-results. */
function alertsFails(c: CurrentCopy): void {
  c.editReceipt('alerts', 0, (r) => void (r.status = 'failed'));
  c.edit(LOG, '3→ alerts ∅ skipped', '3→ alerts ✗ no-results');
}

test("vm-log-header: fs's header (no blank line) and prose.md's example (a blank line, a one-segment root) both read clean", async () => {
  assert.equal(await found(() => {}), []);
  assert.equal(await found((c) => c.edit(LOG, HEADING, `${HEADING}\n`)), []);
  assert.equal(await found((c) => c.edit(LOG, 'root: market-watch', 'root: research/market-watch.prose.md')), []);
  assert.equal(
    await found((c) => c.edit(LOG, `${HEADING}root: market-watch\n`, `${HEADING}\nroot: other\n`)),
    [],
    'root: is not compared with the heading root name',
  );
});

test('vm-log-header: a missing or empty root:, and a header line after the first marker, are vmlog.header findings', async () => {
  assert.equal(await found((c) => c.edit(LOG, 'root: market-watch\n', '')), ['vmlog.header error vm.log.md:1']);
  assert.equal(await found((c) => c.edit(LOG, 'root: market-watch', 'root:')), ['vmlog.header error vm.log.md:2']);
  assert.equal(
    await found((c) =>
      c.edit(LOG, 'root: market-watch\n\n1→ [input] topic ✓\n', '\n1→ [input] topic ✓\nroot: market-watch\n'),
    ),
    ['vmlog.marker error vm.log.md:4', 'vmlog.header error vm.log.md:1'],
  );
});

test('error-file-heading: "# Error: name" (fs, prose.md) and "# Render failed: name" (session.md) both match the ✗ marker', async () => {
  assert.equal(await found(alertsFails), [], 'a ✗ marker without an __error.md is not a finding');
  for (const heading of ['# Error: no-results', '# Render failed: no-results'])
    assert.equal(
      await found((c) => {
        alertsFails(c);
        c.write('workspace/alerts/__error.md', `${heading}\n\nNo feed answered.\n`);
      }),
      [],
      heading,
    );
});

test('error-file-heading: another heading, a name the ✗ marker does not carry, or no ✗ in a complete log are findings', async () => {
  const withError = (text: string, fails = true) =>
    found((c) => {
      if (fails) alertsFails(c);
      c.write('workspace/alerts/__error.md', text);
    });
  const hit = ['vmlog.error-file error workspace/alerts/__error.md:1'];
  assert.equal(await withError('Error: no-results\n'), hit);
  assert.equal(await withError('# Failed: no-results\n'), hit);
  assert.equal(await withError('# Error: rate-limited\n'), hit);
  assert.equal(await withError('# Error: no-results\n', false), hit);
  const [f] = await messages((c) => {
    alertsFails(c);
    c.write('workspace/alerts/__error.md', '# Error: rate-limited\n');
  });
  assert.match(f!.message, 'names error rate-limited, but vm.log.md logs alerts ✗ no-results');
  assert.equal(
    await found((c) => {
      c.edit(LOG, END, '');
      c.write('workspace/alerts/__error.md', '# Error: no-results\n');
    }),
    ['vmlog.incomplete warning vm.log.md:6'],
    'an incomplete log may not have logged the ✗ yet',
  );
});

test('durable-world-model-dir: state/world-models/ and state/responsibilities/ are warnings naming state/world-model/{node}/', async () => {
  for (const stray of ['world-models', 'responsibilities']) {
    const fs = await messages((c) => c.write(`../../state/${stray}/scout/published/findings.md`, '# Findings\n'));
    assert.equal(fs.map(show), [`durable.dir warning ../../state/${stray}`]);
    assert.match(fs[0]!.message, 'state/world-model/{node}/');
  }
});

test('compiled-intent-names: dist/intent.*.json or dist/manifest.*.json, or both the same, read clean; both different is a warning', async () => {
  const dist = (files: Record<string, string>) => (c: CurrentCopy) => {
    for (const [name, text] of Object.entries(files)) c.write(`../../dist/${name}`, text);
  };
  const intent = '{"nodes":["scout","alerts"]}\n';
  assert.equal(await found(dist({ 'intent.active.json': intent }), true), []);
  assert.equal(await found(dist({ 'manifest.active.json': intent }), true), []);
  assert.equal(await found(dist({ 'intent.active.json': intent, 'manifest.active.json': intent }), true), []);
  assert.equal(await found(dist({ 'intent.active.json': intent, 'manifest.active.json': '{}\n' }), true), [
    'root.compiled-intent warning dist/manifest.active.json',
  ]);
});

test('vm-log-terminated: "N→ node ⊘ terminated (reason)" is a marker; no reason, or an empty one, is not', async () => {
  const terminated = (line: string) => (c: CurrentCopy) => c.edit(LOG, END, `${line}\n${END}`);
  assert.equal(await found(terminated('4→ alerts ⊘ terminated (max_rounds)')), []);
  for (const bad of ['4→ alerts ⊘ terminated', '4→ alerts ⊘ terminated ()', '4→ alerts ⊘ terminated ( )'])
    assert.equal(await found(terminated(bad)), ['vmlog.marker error vm.log.md:7'], bad);
});

/** A standalone function run: bindings/{function}/, no world-model of its own, no receipts, no durable state. */
function functionRun(marker: string) {
  return (c: CurrentCopy) => {
    for (const gone of ['receipts', 'world-model/scout', 'workspace/alerts', '../../state']) c.remove(gone);
    c.write('bindings/summarize/summary.md', '# summary\n\nThree launches.\n');
    c.write(LOG, `${HEADING}root: summarize\n\n1→ [input] topic ✓\n${marker}\n${END}`);
  };
}

test('vm-log-function-run: a function run logs "N→ fn ✓" (ours) or "N→ fn ✓ rendered" (accepted)', async () => {
  assert.equal(await found(functionRun('2→ summarize ✓')), []);
  assert.equal(await found(functionRun('2→ summarize ✓ rendered')), []);
});

test('vm-log-function-run: in a mounted run a node with a rendered receipt still needs "✓ rendered", not a bare ✓', async () => {
  assert.equal(await found((c) => c.edit(LOG, '2→ scout ✓ rendered', '2→ scout ✓')), [
    'vmlog.rendered error vm.log.md',
  ]);
});

test('vm-log-parallel-outcome: branches carry their outcome (ours), or the bare "Na→ a ✓" takes it from the receipt', async () => {
  const parallel = (a: string, b: string) => (c: CurrentCopy) =>
    c.edit(LOG, '2→ scout ✓ rendered\n3→ alerts ∅ skipped\n', `2→ ∥start scout,alerts\n${a}\n${b}\n2→ ∥done\n`);
  assert.equal(await found(parallel('2a→ scout ✓ rendered', '2b→ alerts ∅ skipped')), []);
  assert.equal(await found(parallel('2a→ scout ✓', '2b→ alerts ✓')), []);
  assert.equal(await found(parallel('2a→ scout ∅ skipped', '2b→ alerts ✓')), [
    'vmlog.receipt error vm.log.md:6',
    'vmlog.rendered error vm.log.md',
  ]);
});

test('compiled-intent-required: an error in a mounted run, a warning in a function run and in a test run', async () => {
  const noIntent = (c: CurrentCopy) => c.remove('compiled-intent.json');
  assert.equal(await found(noIntent), ['run.envelope error compiled-intent.json']);
  assert.equal(
    await found((c) => {
      functionRun('2→ summarize ✓')(c);
      noIntent(c);
    }),
    ['run.envelope-optional warning compiled-intent.json'],
  );
  assert.equal(
    await found((c) => {
      noIntent(c);
      c.edit(LOG, END, `4→ [eval] alerts stay quiet ✓\n---test PASS\n${END}`);
    }),
    ['run.envelope-optional warning compiled-intent.json'],
  );
});

test('fs-bindings-dir: a mounted run needs no bindings/; a function run keeps its outputs in bindings/{function}/', async () => {
  const c = copyCurrent();
  try {
    assert.not.ok(existsSync(join(c.run, 'bindings')), 'the mounted fixture has no bindings/');
  } finally {
    c.cleanup();
  }
  assert.equal(await found(() => {}), []);
  assert.equal(await found(functionRun('2→ summarize ✓')), []);
});

test("receipt-forward-compat: a current run's receipt with as_of or a real signer is a warning, named, not an error", async () => {
  const fs = await messages((c) =>
    c.editReceipt('scout', 0, (r) => {
      r.as_of = '2026-03-17T14:33:00Z';
      r.sig = { scheme: 'ed25519', key_id: 'k1', signature: 'abc' };
    }),
  );
  const run = fs.filter((f) => f.file === 'receipts/scout.jsonl');
  assert.equal(run.map(show), [
    'wm.receipt.unknown-key warning receipts/scout.jsonl:1',
    'wm.receipt.signer-unverified warning receipts/scout.jsonl:1',
  ]);
  assert.match(run[0]!.message, '"as_of"');
  assert.match(run[0]!.message, 'planned by the harness spec');
  assert.ok(
    fs.every((f) => f.severity === 'warning'),
    fs.map(show).join('\n'),
  );
});

test('skip-rule: a skipped receipt copying the fingerprints forward and a rendered receipt that moved nothing both read clean', async () => {
  assert.equal(
    await found((c) => {
      const first = JSON.parse(readFileSync(join(c.run, 'receipts/scout.jsonl'), 'utf8').split('\n')[0]!);
      const again = { ...first, prev: first.content_hash, semantic_diff: {} };
      again.content_hash = receiptHash(again);
      for (const f of ['receipts/scout.jsonl', '../../state/world-model/scout/receipts.jsonl'])
        writeFileSync(join(c.run, f), readFileSync(join(c.run, f), 'utf8') + canonicalJson(again) + '\n');
    }),
    [],
  );
});

test('current-import-names: imports/{handle}--{slug}/ is verified as a run; another shape is import.name', async () => {
  const imported = (name: string) => (c: CurrentCopy) => {
    const copy = join(c.root, 'copy');
    cpSync(c.run, copy, { recursive: true });
    cpSync(copy, join(c.run, 'imports', name), { recursive: true });
  };
  assert.equal(await found(imported('alice--research')), []);
  assert.equal(await found(imported('alice-research')), ['import.name error imports/alice-research']);
});

test('facet-atomic-scope: .version covers the shared files at the node root and each published/<facet>/ subtree', async () => {
  const stale = ['wm.version-hash error world-model/scout'];
  assert.equal(await found((c) => c.write('world-model/scout/competitors.md', '# shared\n')), stale);
  assert.equal(await found((c) => c.write('world-model/scout/published/funding/events.md', '# funding\n')), stale);
});

test.run();
