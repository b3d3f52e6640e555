import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { plantPathProblem } from '../../src/conformance/plant.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import type { PlantStep } from '../../src/conformance/steps/plant.ts';
import type { CaseResult } from '../../src/conformance/outcome.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import type { ProseError } from '../../src/core/errors.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { postgresMemFactory } from '../../src/backends/postgres/index.ts';
import { sqliteFactory } from '../../src/backends/sqlite/index.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { tempSuite } from '../helpers/temp-suite.ts';

const caseWith = (steps: string, run = true, requires = '[durable, subagent-writes]') => `area: a
cases:
  - id: a/one
    title: one
    requires: ${requires}
    run: ${run}
    steps:
${steps}`;

function withSuite<T>(yaml: string, fn: (dir: string) => T): T {
  const dir = tempSuite({ 'a.yaml': yaml });
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function loadError(yaml: string): ProseError {
  try {
    withSuite(yaml, loadSuite);
  } catch (err) {
    return err as ProseError;
  }
  throw new Error('expected the suite to be refused');
}

async function runOn(factory: BackendFactory, yaml: string): Promise<CaseResult> {
  const dir = tempSuite({ 'a.yaml': yaml });
  try {
    const suite = loadSuite(dir);
    const [r] = await runSuite({
      suite,
      factories: [factory],
      decisions: DEFAULT_DECISIONS,
      filter: { areas: [], ids: [] },
      listener: { header() {}, result() {}, footer() {} },
    });
    return r!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a plant step loads with files and SQL; its case must list subagent-writes and durable', () => {
  const suite = withSuite(
    caseWith(`      - plant: sqlite
        db: .prose/agents.db
        sql: "CREATE TABLE x (a)"
        files: { ".prose/runs/\${run}/attachments/a.md": "text" }
`),
    loadSuite,
  );
  const c = suite.cases[0]!;
  assert.equal([...c.requires].sort(), ['durable', 'subagent-writes']);
  const step = c.steps[0] as PlantStep;
  assert.equal(
    { kind: step.kind, storage: step.storage, db: step.db, sql: step.sql },
    { kind: 'plant', storage: 'sqlite', db: '.prose/agents.db', sql: 'CREATE TABLE x (a)' },
  );
  const e = loadError(caseWith('      - plant: directory\n        files: { a.md: x }\n', true, '[durable]'));
  assert.is(e.code, 'E_CASE');
  assert.match(e.message, /a plant step \(line 8\), which needs capability subagent-writes: list it in "requires"/);
  assert.is(e.location?.field, 'a/one.requires');
});

test('a plant step is refused with file, line and field: unknown fields, paths leaving the storage, SQL on directories', () => {
  const cases: [string, RegExp, string, number?][] = [
    ['      - plant: directory\n        file: { a: b }\n', /unknown field "file"/, 'a/one.steps[0].file', 9],
    [
      '      - plant: directory\n        files: { "../outside.md": x }\n',
      /may not leave the storage root/,
      'a/one.steps[0].files.../outside.md',
    ],
    ['      - plant: directory\n        files: { "/etc/x": x }\n', /is absolute/, 'a/one.steps[0].files./etc/x'],
    ['      - plant: directory\n        files: { "~/../x": x }\n', /may not leave/, 'a/one.steps[0].files.~/../x'],
    ['      - plant: directory\n        sql: "SELECT 1"\n', /directory storage has no SQL/, 'a/one.steps[0].sql'],
    ['      - plant: sqlite\n        sql: "SELECT 1"\n', /give both or neither/, 'a/one.steps[0].db', 8],
    ['      - plant: sqlite\n        db: ../x.db\n        sql: "SELECT 1"\n', /may not leave/, 'a/one.steps[0].db'],
    [
      '      - plant: transcript\n        files: { a: b }\n',
      /plant must be one of directory, sqlite, postgres/,
      'a/one.steps[0].plant',
      8,
    ],
    ['      - plant: directory\n', /plants "files", "sql", or both/, 'a/one.steps[0].plant', 8],
    ['      - plant: directory\n        files: { a: 1 }\n', /file content is a string/, 'a/one.steps[0].files.a'],
  ];
  // The line of the field at fault (9: the line after the step's first), or the step's own line (8).
  for (const [step, message, field, line = 9] of cases) {
    const e = loadError(caseWith(step));
    assert.is(e.code, 'E_CASE');
    assert.match(e.message, message);
    assert.is(e.location?.field, field, step);
    assert.is(e.location?.line, line, step);
  }
});

test('plantPathProblem accepts paths inside the project or home and nothing else', () => {
  for (const ok of ['.prose/runs/r/state.md', '~/.prose/agents.db', 'a/b.c'])
    assert.is(plantPathProblem(ok), undefined, ok);
  for (const bad of ['', '/x', '\\x', 'C:x', 'a/../b', './a', 'a//b', '~/..', 'a\\..\\b'])
    assert.ok(plantPathProblem(bad), bad);
});

test('a path that leaves the storage only once a template is filled errors the case and plants nothing outside', async () => {
  const r = await runOn(
    filesystemFactory,
    caseWith(`      - op: bind
        args: { name: up, kind: let, value: ".." }
      - op: resolve
        args: { name: up }
        save: v
      - plant: directory
        files: { ".prose/\${v.value}/\${v.value}/escaped.md": x }
`),
  );
  assert.is(r.outcome.status, 'errored');
  assert.match(JSON.stringify(r.outcome), /E_CASE.*may not leave the storage root/, JSON.stringify(r.outcome));
});

test('a case planting for another storage kind is skipped with the reason', async () => {
  const r = await runOn(sqliteFactory, caseWith('      - plant: directory\n        files: { a.md: x }\n'));
  assert.equal(r.outcome, {
    status: 'skipped',
    reason: 'plants seed-written state for directory storage; sqlite keeps sqlite storage',
  });
});

test('planted postgres SQL runs on the storage, and the reopened backend reads the row', async () => {
  const r = await runOn(
    postgresMemFactory,
    caseWith(`      - plant: postgres
        sql: "INSERT INTO openprose.bindings (name, run_id, kind, value, source_statement) VALUES ('planted', '\${run}', 'let', 'from SQL', 'let planted = session \\"x\\"')"
      - op: resolve
        args: { name: planted }
        expect: { value: from SQL, kind: let, executionId: null }
`),
  );
  assert.is(r.outcome.status, 'passed', JSON.stringify(r.outcome));
});

test('planted SQLite SQL creates the database file it names', async () => {
  const r = await runOn(
    sqliteFactory,
    caseWith(
      `      - plant: sqlite
        db: .prose/agents.db
        sql: |
          CREATE TABLE IF NOT EXISTS agents (name TEXT PRIMARY KEY, scope TEXT, memory TEXT, created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')));
          INSERT INTO agents (name, scope, memory) VALUES ('captain', 'project', 'planted memory');
      - op: readMemory
        args: { agent: captain, scope: project }
        expect: { memory: planted memory }
`,
      false,
    ),
  );
  assert.is(r.outcome.status, 'passed', JSON.stringify(r.outcome));
});

test.run();
