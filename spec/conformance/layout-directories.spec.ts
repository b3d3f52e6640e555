import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend, BackendFactory } from '../../src/core/backend.ts';
import type { ProseError } from '../../src/core/errors.ts';
import { checkLayout, type LayoutCheck } from '../../src/conformance/check-layout.ts';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { tempSuite } from '../helpers/temp-suite.ts';

// A layout step's `entries:` (a directory holds exactly these) and `hashesTo:` (its OPWM1 address is a file in it),
// read from a directory laid out by hand. truth.json = "{}" hashes to this address (facts table 3.2, world-model.yaml).
const TRUTH = 'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85';
const factory = { kind: 'directory', capabilities: ['layout:directory'] } as unknown as BackendFactory;

async function judge(build: (dir: string) => void, step: Omit<LayoutCheck, 'storage'>): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'prose-layout-'));
  try {
    build(dir);
    const backend = { storage: () => ({ kind: 'directory', projectDir: dir, homeDir: dir }) } as unknown as Backend;
    const verdict = await checkLayout({ storage: 'directory', ...step }, factory, backend, {});
    assert.is.not(verdict, 'n/a');
    return verdict as string | undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A published node `n/`: truth.json and its .version, plus `extra` files. */
const node =
  (extra: Record<string, string> = {}, version = `${TRUTH}\n`) =>
  (dir: string) => {
    mkdirSync(join(dir, 'n'));
    writeFileSync(join(dir, 'n', 'truth.json'), '{}');
    writeFileSync(join(dir, 'n', '.version'), version);
    for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, 'n', name), text);
  };

test('entries: exactly the named entries, dotfiles included, holds', async () => {
  assert.is(await judge(node(), { file: 'n', entries: ['truth.json', '.version'] }), undefined);
  assert.is(await judge(node(), { file: 'n', entries: ['.version', 'truth.json'], hashesTo: '.version' }), undefined);
});

test('entries: an extra file (a dotfile too) and a missing one are each named', async () => {
  const extra = await judge(node({ '.truth.json.tmp': '{' }), { file: 'n', entries: ['truth.json', '.version'] });
  assert.match(extra ?? '', /extra "\.truth\.json\.tmp"/);
  assert.not.match(extra ?? '', /missing/);
  const missing = await judge(node(), { file: 'n', entries: ['truth.json', '.version', 'notes.md'] });
  assert.match(missing ?? '', /missing "notes\.md"/);
  assert.not.match(missing ?? '', /extra/);
  const both = await judge(node({ 'x.md': '' }), { file: 'n', entries: ['truth.json', 'y.md'] });
  assert.match(both ?? '', /extra "\.version", "x\.md"; missing "y\.md"/);
});

test('hashesTo: a file kept beside the published ones, or a stale stamp, breaks the address', async () => {
  const kept = await judge(node({ 'truth.json.tmp': '{}' }), { file: 'n', hashesTo: '.version' });
  assert.match(kept ?? '', /^n\/ hashes to sha256:[0-9a-f]{64} .* but \.version says/);
  const stale = await judge(node({}, `sha256:${'0'.repeat(64)}\n`), { file: 'n', hashesTo: '.version' });
  assert.match(stale ?? '', new RegExp(`hashes to ${TRUTH}`));
  const none = await judge(
    (dir) => {
      mkdirSync(join(dir, 'n'));
      writeFileSync(join(dir, 'n', 'truth.json'), '{}');
    },
    { file: 'n', hashesTo: '.version' },
  );
  assert.match(none ?? '', /\.version does not exist/);
});

test('a directory step on a file or on nothing says so', async () => {
  assert.is(await judge(node(), { file: 'n/truth.json', entries: [] }), 'n/truth.json is not a directory');
  assert.is(await judge(node(), { file: 'm', entries: [] }), 'm does not exist');
});

/** The loader's refusal of a case whose one step is `step` (YAML, indented for a steps list). */
function refusal(step: string): ProseError | undefined {
  const dir = tempSuite({
    'a.yaml': `area: a\ncases:\n  - id: a/one\n    title: one\n    requires: [layout:directory]\n    steps:\n${step}`,
  });
  try {
    loadSuite(dir);
    return undefined;
  } catch (err) {
    return err as ProseError;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the loader takes entries and hashesTo on a directory, and refuses them malformed or mixed with text checks', () => {
  assert.is(
    refusal('      - layout: directory\n        file: d\n        entries: [a, .b]\n        hashesTo: .b\n'),
    undefined,
  );
  for (const [step, says] of [
    ['        file: d\n        entries: a\n', /entries must be a list/],
    ['        file: d\n        hashesTo: x/.version\n', /hashesTo must name a file/],
    ['        entries: [a]\n', /judge the directory named by file/],
    ['        file: d\n        entries: [a]\n        exists: true\n', /exists judges a file's text/],
  ] as const) {
    const e = refusal(`      - layout: directory\n${step}`);
    assert.is(e?.code, 'E_CASE', step);
    assert.match(e?.message ?? '', says);
  }
});

test.run();
