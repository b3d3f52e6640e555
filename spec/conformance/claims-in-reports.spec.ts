import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CapabilityVerdict } from '../../src/conformance/probes/capability-verdict.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import type { CapabilityReport } from '../../src/conformance/probes/capability-report.ts';
import type { CaseResult } from '../../src/conformance/outcome.ts';
import { createReporters, REPORTERS } from '../../src/conformance/reporters/create-reporters.ts';
import type { RunHeader } from '../../src/conformance/run-suite.ts';

// Every verdict a probe can give, fed straight into every reporter: each format must show each one.
const VERDICTS: CapabilityVerdict[] = [
  { capability: 'imports', declared: true, works: true, verdict: 'ok' },
  {
    capability: 'durable',
    declared: true,
    works: false,
    verdict: 'claimed-but-broken',
    detail: 'declared, but a binding was gone after closing and reopening the backend (E_NOT_FOUND)',
  },
  {
    capability: 'project-scope',
    declared: false,
    works: true,
    verdict: 'undeclared-but-works',
    detail: 'not declared, yet the probe succeeded',
  },
  {
    capability: 'user-scope',
    declared: false,
    works: false,
    verdict: 'undeclared-half-works',
    detail: 'not declared, and not refused with E_UNSUPPORTED: E_NOT_FOUND: lost it',
  },
  {
    capability: 'subagent-writes',
    declared: true,
    works: null,
    verdict: 'unprobed',
    detail: 'no probe for this capability yet',
  },
  { capability: 'receipts', declared: true, works: null, verdict: 'errored', detail: 'E_PLUGIN: the plugin crashed' },
  {
    capability: 'multi-process',
    declared: false,
    works: null,
    verdict: 'ok',
    detail: 'nothing to refuse when undeclared',
  },
];

function header(probes: 'run' | 'skipped'): RunHeader {
  return {
    suite: { name: 's', version: '1' },
    backend: {
      name: 'liar',
      kind: 'other',
      capabilities: ['imports', 'durable', 'subagent-writes', 'receipts'],
      description: 'd',
    },
    edition: 'v0',
    decisions: DEFAULT_DECISIONS,
    cases: 1,
    seed: 1,
    probes,
  };
}

const passed: CaseResult = {
  backend: 'liar',
  id: 'a/one',
  area: 'a',
  title: 't',
  spec: 's',
  durationMs: 1,
  outcome: { status: 'passed', layoutChecks: 0, layoutNotApplicable: 0 },
};

/** Drives one reporter through a backend's run as the runner does; returns what it wrote. */
function report(name: string, probes: 'run' | 'skipped', verdicts = VERDICTS): string {
  const out: string[] = [];
  const r = createReporters(name, (s) => out.push(s), {});
  r.header(header(probes));
  if (probes === 'run') r.capabilities({ backend: 'liar', durationMs: 42, verdicts } satisfies CapabilityReport);
  r.result(passed);
  r.footer('liar', { passed: 1, failed: 0, skipped: 0, errored: 0, xfailed: 0, xpassed: 0, total: 1 }, {});
  r.finish([passed]);
  return out.join('');
}

test('pretty: a Capability claims section lists every verdict that is not a plain ok, with its detail', () => {
  const out = report('pretty', 'run');
  assert.match(
    out,
    /Capability claims \(probed in 42 ms\): 2 ok, 1 claimed-but-broken, 1 undeclared-but-works, 1 undeclared-half-works, 1 unprobed, 1 errored; undeclared, not exercised: multi-process \(nothing to refuse when undeclared\)$/m,
  );
  assert.match(out, /CLAIMED-BUT-BROKEN +durable: declared, but a binding was gone/);
  assert.match(out, /UNDECLARED-BUT-WORKS +project-scope: not declared, yet the probe succeeded/);
  assert.match(out, /UNDECLARED-HALF-WORKS +user-scope: .*E_NOT_FOUND/);
  assert.match(out, /unprobed +subagent-writes: no probe for this capability yet/);
  assert.match(out, /ERRORED +receipts: E_PLUGIN/);
  assert.not.match(out, /imports:/);
  assert.match(out, /^capability claims: 3 contradicted, 1 errored, 1 unprobed, 2 ok on 1 backend$/m);
});

test('json: one capabilities record after the header, with counts and every verdict', () => {
  const lines = report('json', 'run')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(
    lines.map((l) => l.type),
    ['header', 'capabilities', 'case', 'footer'],
  );
  assert.is(lines[0].probes, 'run');
  const c = lines[1];
  assert.is(c.backend, 'liar');
  assert.is(c.durationMs, 42);
  assert.equal(c.counts, {
    ok: 2,
    'claimed-but-broken': 1,
    'undeclared-but-works': 1,
    'undeclared-half-works': 1,
    unprobed: 1,
    errored: 1,
  });
  assert.equal(c.verdicts, VERDICTS);
});

test('tap: contradictions and errored probes are not ok, unprobed is a SKIP with its reason', () => {
  const out = report('tap', 'run');
  assert.match(out, /^ok 1 - liar capability imports$/m);
  assert.match(
    out,
    /^not ok 2 - liar capability durable\n {2}---\n {2}message: "contradicted claim: claimed-but-broken"/m,
  );
  assert.match(out, /^not ok 3 - liar capability project-scope$/m);
  assert.match(out, /^not ok 4 - liar capability user-scope$/m);
  assert.match(out, /^ok 5 - liar capability subagent-writes # SKIP unprobed: no probe for this capability yet$/m);
  assert.match(out, /^not ok 6 - liar capability receipts\n {2}---\n {2}message: "errored: the probe could not tell"/m);
  assert.match(out, /^ok 7 - liar capability multi-process # SKIP nothing to refuse when undeclared$/m);
  assert.match(out, /^ok 8 - liar a\/one$/m);
  assert.match(out, /^1\.\.8$/m);
});

test('junit: a capability claims testsuite, contradictions as failures, errored as an error, unprobed skipped', () => {
  const out = report('junit', 'run');
  assert.match(
    out,
    /<testsuite name="liar capability claims" tests="7" failures="3" errors="1" skipped="2" time="0\.042">/,
  );
  assert.match(
    out,
    /name="durable"><failure message="claimed-but-broken: declared, but a binding was gone[^"]*" type="claimed-but-broken"\/>/,
  );
  assert.match(out, /name="project-scope"><failure message="undeclared-but-works: [^"]*"/);
  assert.match(out, /name="user-scope"><failure message="undeclared-half-works: [^"]*"/);
  assert.match(out, /name="receipts"><error message="E_PLUGIN: the plugin crashed"/);
  assert.match(out, /name="subagent-writes"><skipped message="unprobed: no probe for this capability yet"\/>/);
  assert.match(out, /<testcase classname="liar\.capabilities" name="imports"\/>/);
});

test('md and html: a capability table, and every verdict that is not a plain ok with its detail', () => {
  const md = report('md', 'run');
  assert.match(
    md,
    /## Capability claims\n\n\| capability \| liar \|\n\|---\|---\|\n\| imports \| yes \|\n\| durable \| BROKEN \|\n\| project-scope \| WORKS! \|\n\| user-scope \| HALF! \|\n\| subagent-writes \| unprobed \|\n\| receipts \| errored \|\n\| multi-process \| no \(n\/a\) \|/,
  );
  assert.match(md, /- \*\*liar\*\* durable: claimed-but-broken: declared, but a binding was gone/);
  assert.match(md, /- \*\*liar\*\* subagent-writes: unprobed: no probe for this capability yet/);
  const html = report('html', 'run');
  assert.match(html, /<h2>Capability claims<\/h2>/);
  assert.match(html, /<tr><th>durable<\/th><td class="bad">BROKEN<\/td><\/tr>/);
  assert.match(html, /<tr><th>subagent-writes<\/th><td class="skip">unprobed<\/td><\/tr>/);
  assert.match(
    html,
    /<li><b>liar<\/b> user-scope: undeclared-half-works: not declared, and not refused with E_UNSUPPORTED: E_NOT_FOUND: lost it<\/li>/,
  );
});

test('an honest backend: no failure marks in any format', () => {
  const honest = VERDICTS.filter((v) => v.verdict === 'ok');
  const legend = /yes: declared and works;[^\n<]*/g;
  for (const name of REPORTERS.filter((r) => r !== 'json')) {
    const out = report(name, 'run', honest).replace(legend, '');
    assert.not.match(
      out,
      /BROKEN|WORKS!|HALF!|claimed-but-broken|undeclared-but-works|undeclared-half-works|errored:|not ok|ERRORED/,
      name,
    );
  }
  const json = report('json', 'run', honest)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(json[1].counts, {
    ok: 2,
    'claimed-but-broken': 0,
    'undeclared-but-works': 0,
    'undeclared-half-works': 0,
    unprobed: 0,
    errored: 0,
  });
  assert.match(
    report('junit', 'run', honest),
    /<testsuite name="liar capability claims" tests="2" failures="0" errors="0" skipped="1"/,
  );
  assert.match(
    report('pretty', 'run', honest),
    /^capability claims: 0 contradicted, 0 errored, 0 unprobed, 2 ok on 1 backend$/m,
  );
});

test('--no-probe: every format states it in its header, and no capability record appears', () => {
  assert.match(
    report('pretty', 'skipped'),
    /capability probes: skipped \(--no-probe\)[\s\S]*^capability claims: not probed \(--no-probe\)$/m,
  );
  const json = report('json', 'skipped')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.is(json[0].probes, 'skipped');
  assert.not.ok(json.some((l) => l.type === 'capabilities'));
  assert.match(report('tap', 'skipped'), /^# backend liar: .*; capability probes skipped \(--no-probe\)$/m);
  assert.match(report('junit', 'skipped'), /<property name="capability-probes" value="skipped \(--no-probe\)"\/>/);
  assert.match(report('md', 'skipped'), /capability probes skipped \(--no-probe\)/);
  assert.match(report('html', 'skipped'), /Capability probes skipped \(--no-probe\) for liar/);
});

test.run();
