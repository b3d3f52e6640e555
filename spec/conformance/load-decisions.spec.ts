import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDecisionRows, parseDecisionFile } from '../../src/conformance/load-decisions.ts';
import { ProseError } from '../../src/core/errors.ts';
import { renderDecisions } from '../../src/core/decisions/render.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

const ROW = `- id: some-choice
  area: bindings
  spec: what the spec says
  choice: what we chose
  why: because
`;

function errorOf(fn: () => unknown): ProseError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProseError) return err;
    throw err;
  }
  throw new Error('expected a ProseError');
}

test('the shipped rows load, and render docs/decisions.md as committed', () => {
  const rows = loadDecisionRows(join(root, 'conformance'));
  assert.ok(rows.length > 100);
  assert.is(renderDecisions(rows), readFileSync(join(root, 'docs/decisions.md'), 'utf8'));
});

test('a row parses to its five fields and an optional setting', () => {
  const rows = parseDecisionFile(
    ROW + ROW.replace('some-choice', 'other').replace('  why', '  setting: anonWidth\n  why'),
    'x.yaml',
  );
  assert.equal(rows[0]!.row, {
    id: 'some-choice',
    area: 'bindings',
    spec: 'what the spec says',
    choice: 'what we chose',
    why: 'because',
  });
  assert.is(rows[1]!.line, 6);
  assert.is(rows[1]!.row.setting, 'anonWidth');
});

test('an unknown key, a missing key and an unknown setting are refused with file and line', () => {
  const unknown = errorOf(() => parseDecisionFile(ROW + '  note: extra\n', 'x.yaml'));
  assert.is(unknown.code, 'E_FORMAT');
  assert.equal(unknown.location, { file: 'x.yaml', line: 6, field: 'note' });
  const missing = errorOf(() => parseDecisionFile(ROW.replace('  why: because\n', ''), 'x.yaml'));
  assert.equal(missing.location, { file: 'x.yaml', line: 1, field: 'why' });
  const setting = errorOf(() => parseDecisionFile(ROW + '  setting: nope\n', 'x.yaml'));
  assert.equal(setting.location, { file: 'x.yaml', line: 1, field: 'setting' });
});

test('editions: a list of edition names, rendered in the edition column (absent or every edition: both)', () => {
  const rows = parseDecisionFile(
    ROW +
      ROW.replace('some-choice', 'v0-only').replace('  why', '  editions: [v0]\n  why') +
      ROW.replace('some-choice', 'all').replace('  why', '  editions: [v0, current]\n  why'),
    'x.yaml',
  ).map((r) => r.row);
  assert.is(rows[0]!.editions, undefined);
  assert.equal(rows[1]!.editions, ['v0']);
  const table = renderDecisions(rows);
  assert.match(table, '| id | edition | the spec says | our choice | why |');
  assert.match(table, '| `some-choice` | both | what the spec says |');
  assert.match(table, '| `v0-only` | v0 | what the spec says |');
  assert.match(table, '| `all` | both | what the spec says |');
  for (const bad of ['editions: v0', 'editions: []', 'editions: [v1]', 'editions: [v0, v0]']) {
    const err = errorOf(() => parseDecisionFile(ROW + `  ${bad}\n`, 'x.yaml'));
    assert.equal(err.location, { file: 'x.yaml', line: 6, field: 'editions' }, bad);
  }
});

test('an id used twice and a file not in the list are refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-decisions-'));
  try {
    cpSync(join(root, 'conformance/decisions'), join(dir, 'decisions'), { recursive: true });
    writeFileSync(join(dir, 'decisions/durability.yaml'), ROW + '\n' + ROW);
    const twice = errorOf(() => loadDecisionRows(dir));
    assert.match(twice.message, /some-choice has a row already, at .*durability\.yaml:1/);
    assert.is(twice.location?.line, 7);
    writeFileSync(join(dir, 'decisions/durability.yaml'), ROW);
    writeFileSync(join(dir, 'decisions/extra.yaml'), ROW);
    assert.match(errorOf(() => loadDecisionRows(dir)).message, /extra\.yaml is not one of the decision files/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
