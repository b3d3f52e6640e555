import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import type { SubagentStep } from '../../src/conformance/steps/subagent.ts';
import { ProseError } from '../../src/core/errors.ts';
import { tempSuite } from '../helpers/temp-suite.ts';

const caseWith = (step: string) => `area: a
cases:
  - id: a/one
    title: one
    requires: [subagent-writes]
    steps:
${step}`;

const good = `      - subagent: { binding: research, value: "v\\n", summary: s }
        findings: []
`;

function load(yaml: string) {
  const dir = tempSuite({ 'a.yaml': yaml });
  try {
    return loadSuite(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function loadError(yaml: string): ProseError {
  try {
    load(yaml);
  } catch (err) {
    return err as ProseError;
  }
  throw new Error('expected the suite to be refused');
}

test('a subagent step loads, requires subagent-writes, and maps kind to the binding kind', () => {
  const suite = load(caseWith(good.replace('summary: s', 'summary: s, kind: output')));
  const c = suite.cases[0]!;
  assert.equal(c.requires, ['subagent-writes']);
  const step = c.steps[0] as SubagentStep;
  assert.is(step.kind, 'subagent');
  assert.is(step.bindingKind, 'output');
  assert.equal(step.findings, []);
  assert.is(step.refused, false);
});

test('findings may be one list per storage kind, and anchors are shared between cases', () => {
  const yaml = `area: a
cases:
  - id: a/one
    title: one
    requires: [subagent-writes]
    steps:
      - subagent: { binding: b, value: &v "shared value\\n", summary: s, deviate: location-outside-run }
        findings: { directory: [message.location-outside-run], sqlite: [message.location-outside-run], postgres: [message.location-mismatch] }
  - id: a/two
    title: two
    requires: [subagent-writes]
    steps:
      - subagent: { binding: b, value: *v, summary: s }
`;
  const [one, two] = load(yaml).cases;
  assert.equal((one!.steps[0] as SubagentStep).findings, {
    directory: ['message.location-outside-run'],
    sqlite: ['message.location-outside-run'],
    postgres: ['message.location-mismatch'],
  });
  assert.is((two!.steps[0] as SubagentStep).value, 'shared value\n');
});

test('bad subagent steps are E_CASE naming the field', () => {
  const cases: [string, RegExp, string][] = [
    [good.replace('binding: research', 'bindng: research'), /unknown field "bindng"/, 'subagent.bindng'],
    [good.replace(', summary: s', ''), /"summary" is required/, 'subagent.summary'],
    [good.replace('binding: research, ', ''), /a subagent writes a binding, an agent's memory, or both/, 'subagent'],
    [good.replace('findings: []', 'findings: [message.nope]'), /unknown rule "message.nope"/, 'findings'],
    [
      good.replace('findings: []', 'findings: { directory: [], sqlite: [], pg: [] }'),
      /unknown kind "pg"/,
      'findings.pg',
    ],
    [good.replace('findings: []', 'refused: true'), /only a deviating subagent/, 'refused'],
    [good.replace('summary: s', 'summary: s, deviate: forget'), /deviate is one of/, 'subagent.deviate'],
    [good.replace('summary: s', 'summary: s, scope: global'), /scope is execution, project or user/, 'subagent.scope'],
    [good.replace('findings: []', 'finding: []'), /unknown field "finding"/, 'finding'],
  ];
  for (const [step, message, field] of cases) {
    const e = loadError(caseWith(step));
    assert.is(e.code, 'E_CASE');
    assert.match(e.message, message);
    assert.ok(e.location?.field?.endsWith(field), `${e.location?.field} ends with ${field}`);
    assert.ok(e.location?.file?.endsWith('a.yaml'));
  }
});

test.run();
