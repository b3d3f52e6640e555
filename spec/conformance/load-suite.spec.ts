import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { ProseError } from '../../src/core/errors.ts';
import { ONE_CASE_FILE, tempSuite } from '../helpers/temp-suite.ts';

function loadError(yaml: string): ProseError {
  const dir = tempSuite({ 'a.yaml': yaml });
  try {
    loadSuite(dir);
  } catch (err) {
    return err as ProseError;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('expected the suite to be refused');
}

const good = ONE_CASE_FILE;

test('a valid file loads with positions and the requirements it lists', () => {
  const dir = tempSuite({
    'a.yaml': good.replace('    steps:\n', '    requires: [durable]\n    steps:\n      - restart\n'),
  });
  const suite = loadSuite(dir);
  rmSync(dir, { recursive: true, force: true });
  assert.is(suite.cases.length, 1);
  assert.is(suite.cases[0]!.pos.line, 3);
  assert.equal(suite.cases[0]!.requires, ['durable']);
});

test('a step needing a capability the case does not list is E_CASE naming the capability (restart, crash, concurrent, subagent)', () => {
  const withStep = (step: string, requires = '') =>
    good.replace('    steps:\n', `${requires}    steps:\n      - ${step}\n`);
  const e1 = loadError(withStep('restart'));
  assert.is(e1.code, 'E_CASE');
  assert.match(e1.message, /restart step, which needs capability durable: list it in "requires"/);
  const e2 = loadError(withStep('crash: { workload: bindings, kills: 2 }', '    requires: [durable]\n'));
  assert.match(e2.message, /crash step, which needs capability multi-process/);
  assert.is(e2.location?.line, 5);
  const e3 = loadError(
    withStep('concurrent: { workload: bindings, writers: 2, each: 2 }', '    requires: [multi-process]\n'),
  );
  assert.match(e3.message, /concurrent step, which needs capability concurrent-writers/);
  const e4 = loadError(withStep('crash-states: { workload: bindings, count: 2 }', '    requires: [durable]\n'));
  assert.match(e4.message, /crash-states step, which needs capability multi-process/);
  const e5 = loadError(
    withStep('crash-states: { workload: bindings, count: 0 }', '    requires: [durable, multi-process]\n'),
  );
  assert.match(e5.message, /"count" must be a whole number of at least 1/);
  // A crash in one process needs no second one: durable alone loads.
  const dir = tempSuite({
    'a.yaml': withStep('crash: { workload: bindings, kills: 2, in-process: true }', '    requires: [durable]\n'),
  });
  const requires = loadSuite(dir).cases[0]!.requires.join();
  rmSync(dir, { recursive: true, force: true });
  assert.is(requires, 'durable');
});

test('restart: {project: NAME} loads as a project switch; other shapes are refused by field', () => {
  const dir = tempSuite({
    'a.yaml': good.replace('    steps:\n', '    requires: [durable]\n    steps:\n      - restart: { project: two }\n'),
  });
  const suite = loadSuite(dir);
  rmSync(dir, { recursive: true, force: true });
  assert.equal(suite.cases[0]!.steps[0], {
    kind: 'restart',
    pos: { file: suite.cases[0]!.steps[0]!.pos.file, line: 7 },
    project: 'two',
  });
  assert.equal(suite.cases[0]!.requires, ['durable']);
  assert.match(
    loadError(good.replace('    steps:\n', '    steps:\n      - restart: { project: ../x }\n')).message,
    /restart\.project is a lowercase name/,
  );
  assert.match(
    loadError(good.replace('    steps:\n', '    steps:\n      - restart: { home: x }\n')).message,
    /restart takes \{project: NAME\}/,
  );
});

test('broken YAML is E_CASE with file and line', () => {
  const e = loadError('area: a\ncases:\n  - id: a/x\n    title: [unclosed\n');
  assert.is(e.code, 'E_CASE');
  assert.ok(e.location?.file?.endsWith('a.yaml'));
  assert.ok((e.location?.line ?? 0) >= 4);
});

test('an unknown field is refused by name, with its line', () => {
  const e = loadError(good.replace('    title: one\n', '    title: one\n    tittle: typo\n'));
  assert.is(e.code, 'E_CASE');
  assert.match(e.message, /unknown field "tittle"/);
  assert.is(e.location?.line, 5);
});

test('an unknown op, argument or error code is refused', () => {
  assert.match(loadError(good.replace('op: resolve', 'op: resolv')).message, /unknown op "resolv"/);
  assert.match(loadError(good.replace('{ name: x }', '{ nam: x }')).message, /resolve has no argument "nam"/);
  assert.match(loadError(good.replace('E_NOT_FOUND', 'E_NOPE')).message, /unknown error code "E_NOPE"/);
});

test('wrong types and bad ids are refused', () => {
  assert.match(loadError(good.replace('title: one', 'title: 3')).message, /"title" must be a non-empty string/);
  assert.match(loadError(good.replace('id: a/one', 'id: b/one')).message, /must look like "a\/some-name"/);
  assert.match(
    loadError(good.replace('    steps:', '    requires: [teleport]\n    steps:')).message,
    /known capabilities/,
  );
});

test('a case id used twice names both places', () => {
  const dir = tempSuite({ 'a.yaml': good, 'b.yaml': good });
  try {
    assert.throws(
      () => loadSuite(dir),
      (e: ProseError) => e.code === 'E_CASE' && /already used at .*a\.yaml:3/.test(e.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the built-in suite loads and has at least 80 cases with unique ids', () => {
  const suite = loadSuite(new URL('../../conformance', import.meta.url).pathname);
  assert.ok(suite.cases.length >= 80, `only ${suite.cases.length} cases`);
  assert.is(new Set(suite.cases.map((c) => c.id)).size, suite.cases.length);
});

test.run();
