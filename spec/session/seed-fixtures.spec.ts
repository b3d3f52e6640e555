// The seed's own examples (verbatim from session.md and filesystem.md) raise no error; each planted defect in
// spec/fixtures/session/defects/ is caught by the rule its manifest names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatBindingFile } from '../../src/core/formats/binding-file.ts';
import { checkMemoryText, checkSegmentFile, checkSubagentOutput, parseSignals } from '../../src/session/index.ts';

const FIX = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/session');
const seed = (f: string) => readFileSync(join(FIX, 'seed', f), 'utf8');
const R = '.prose/runs/20260115-143052-a7b3c9';
const R2 = '.prose/runs/20260116-143052-a7b3c9';

/** A project holding the two seed runs the examples point at. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prose-session-seed-'));
  const put = (p: string, text: string) => {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  };
  const segment = (n: number) =>
    seed('captain-001.md').replace('# Segment 001', `# Segment ${String(n).padStart(3, '0')}`);
  for (const run of [R, R2]) {
    put(`${run}/state.md`, '# run\n');
    put(`${run}/bindings/research.md`, seed('research.md'));
    put(
      `${run}/bindings/analysis.md`,
      formatBindingFile({
        name: 'analysis',
        kind: 'let',
        executionId: null,
        source: 'let analysis = session: captain',
        value: 'Risk assessment: 3 critical, 5 moderate.',
      }),
    );
    put(
      `${run}/bindings/result__43.md`,
      formatBindingFile({
        name: 'result',
        kind: 'let',
        executionId: 43,
        source: 'let result = session "Process chunk"',
        value: 'three sub-parts',
      }),
    );
    put(`${run}/agents/captain/memory.md`, seed('memory.md'));
    for (const n of [1, 2, 3]) put(`${run}/agents/captain/captain-00${n}.md`, segment(n));
  }
  put(`${R}/bindings/broken.md`, '# broken\n\nkind: let\n\n---\n\nno source block\n');
  put(
    `${R}/bindings/mislabeled.md`,
    formatBindingFile({ name: 'other', kind: 'let', executionId: null, source: '', value: 'x' }),
  );
  put(`${R}/agents/navigator/memory.md`, seed('memory.md').replace('captain', 'navigator'));
  for (const n of [1, 3]) put(`${R}/agents/navigator/navigator-00${n}.md`, segment(n));
  return dir;
}

const errors = (fs: { severity: string }[]) => fs.filter((f) => f.severity === 'error');

test('the seed returns (filesystem.md, session.md 7.1-7.4) raise no error against the run they point at', async () => {
  const dir = project();
  for (const [file, run] of [
    ['return-root.txt', R],
    ['return-block.txt', R],
    ['return-good.txt', R2],
    ['return-persistent.txt', R2],
  ] as const) {
    const fs = await checkSubagentOutput(seed(file), join(dir, run), { file });
    assert.equal(errors(fs), [], file);
  }
  // The seed's segment example is itself vague: the specificity warning names it, and it is only a warning.
  const persistent = await checkSubagentOutput(seed('return-persistent.txt'), join(dir, R2), { file: 'p' });
  assert.equal(
    persistent.map((f) => f.rule),
    ['segment.specificity'],
  );
});

test('the seed postgres returns parse; without a connection the rows are reported unchecked, not wrong', async () => {
  const dir = project();
  for (const file of ['return-postgres.txt', 'return-postgres-block.txt']) {
    const fs = await checkSubagentOutput(seed(file), join(dir, R2), { file, storage: 'postgres' });
    assert.equal(
      fs.map((f) => f.rule),
      ['message.unchecked'],
      file,
    );
  }
});

test('the seed signals (session.md 5.1-5.3) parse into data with no finding', () => {
  const { signals, findings } = parseSignals(seed('signals.txt'), 'signals.txt');
  assert.equal(findings, []);
  assert.equal(
    signals.map((s) => s.type),
    ['decision', 'revision', 'concern', 'segment-complete'],
  );
  assert.equal(signals[1], {
    type: 'revision',
    issues: ['[specific issue]', '[specific issue]'],
    requiredChanges: '[what needs to happen]',
    line: 4,
  });
  assert.equal(signals[2]!.type === 'concern' && signals[2]!.severity, 'medium');
});

test('the seed memory, segment and good compaction raise no error; only the vague seed segment warns', () => {
  assert.equal(checkMemoryText(seed('memory.md'), { where: { file: 'memory.md' }, agent: 'captain' }), []);
  assert.equal(checkMemoryText(seed('memory-good-compaction.md'), { where: { file: 'm' }, agent: 'captain' }), []);
  assert.equal(
    checkSegmentFile(seed('captain-001.md'), 'captain-001.md', 1).map((f) => f.rule),
    ['segment.specificity'],
  );
});

const manifest = JSON.parse(readFileSync(join(FIX, 'defects', 'manifest.json'), 'utf8')) as {
  file: string;
  kind: string;
  rule: string;
}[];
test(`each of the ${manifest.length} planted defects is caught by its rule, with a line or a row`, async () => {
  const dir = project();
  for (const d of manifest) {
    const text = readFileSync(join(FIX, 'defects', d.file), 'utf8');
    const fs =
      d.kind === 'message'
        ? await checkSubagentOutput(text, join(dir, R), { file: d.file })
        : d.kind === 'memory'
          ? checkMemoryText(text, { where: { file: d.file }, agent: 'captain' })
          : checkSegmentFile(text, d.file, 1);
    const hit = fs.find((f) => f.rule === d.rule);
    assert.ok(hit, `${d.file}: expected ${d.rule}, got ${JSON.stringify(fs.map((f) => f.rule))}`);
    assert.ok(hit!.file !== undefined || hit!.table !== undefined, `${d.file}: the finding says where`);
  }
});

test('garbage never crashes the checker: binary, empty, a missing run directory', async () => {
  for (const text of [
    '',
    '\u0000\u0001\uFFFD',
    'Location:\nBinding written:\n',
    'Binding written: x\nLocation: openprose.bindings WHERE nonsense',
  ]) {
    const fs = await checkSubagentOutput(text, '/nonexistent/.prose/runs/20260115-143052-a7b3c9');
    assert.ok(errors(fs).length > 0, JSON.stringify(text));
  }
});

test.run();
