import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli as run } from '../helpers/run-cli.ts';
import { main } from '../../src/cli/main.ts';
import { captureIo, tempSuite } from '../helpers/temp-suite.ts';

// `test --edition`: which backend is judged in which edition, under which name, and what every report says of it.
const MODULE = `module:${fileURLToPath(new URL('./fixtures/two-editions-module.ts', import.meta.url))}`;
const suiteDir = tempSuite({
  'a.yaml': `area: a
cases:
  - id: a/edition-var
    title: the case sees the edition it is judged in
    steps:
      - op: bind
        args: { run: "\${run}", name: e, kind: let, value: "\${edition}" }
      - op: resolve
        args: { run: "\${run}", name: e }
        expect: { value: "\${edition}" }
  - id: a/current-only
    title: a case of the current edition's text
    editions: [current]
    steps:
      - op: resolve
        args: { name: x }
        error: E_NOT_FOUND
`,
});
const schema = JSON.parse(
  readFileSync(new URL('../../conformance/schema/report.schema.json', import.meta.url), 'utf8'),
);
const validate = new Ajv({ discriminator: true, allErrors: true }).compile(schema);
const dir = mkdtempSync(join(tmpdir(), 'prose-editions-'));
const BASE = ['test', '--suite', suiteDir, '--no-probe', '--jobs', '1'];
const CUR = ['--edition', 'current'];
const CURRENT_JSON = [...CUR, '--reporter', 'json'];

type Rec = Record<string, unknown> & { type: string };
const recs = (out: string): Rec[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Rec);
const headers = (out: string) =>
  recs(out)
    .filter((r) => r.type === 'header')
    .map((r) => [(r.backend as { name: string }).name, r.edition]);
const cases = (out: string) =>
  recs(out)
    .filter((r) => r.type === 'case')
    .map((r) => `${r.backend} ${r.id} ${r.status}`);

// The filesystem backend declares both editions; the reference module plugin declares none (so v0 alone): it stands
// for a backend left out of one.
const V0_ONLY = `module:${fileURLToPath(new URL('../../conformance/plugins/reference-module/index.js', import.meta.url))}`;
test('--edition all (the default) judges each backend in every edition it declares; v0 keeps the plain name', async () => {
  const r = await run([
    ...BASE,
    '--backend',
    'filesystem',
    '--backend',
    V0_ONLY,
    '--backend',
    MODULE,
    '--reporter',
    'json',
  ]);
  assert.is(r.code, 0, r.err);
  assert.equal(headers(r.out), [
    ['filesystem', 'v0'],
    ['filesystem@current', 'current'],
    ['reference-module', 'v0'],
    ['two-editions', 'v0'],
    ['two-editions@current', 'current'],
  ]);
  assert.equal(cases(r.out), [
    'filesystem a/edition-var passed',
    'filesystem a/current-only skipped',
    'filesystem@current a/edition-var passed',
    'filesystem@current a/current-only passed',
    'reference-module a/edition-var passed',
    'reference-module a/current-only skipped',
    'two-editions a/edition-var passed',
    'two-editions a/current-only skipped',
    'two-editions@current a/edition-var passed',
    'two-editions@current a/current-only passed',
  ]);
  const c = captureIo({ PROSE_STATE_EDITION: 'current' });
  assert.is(await main([...BASE, '--backend', MODULE, '--reporter', 'json'], c.io), 0);
  assert.equal(headers(c.out()), [['two-editions@current', 'current']], 'PROSE_STATE_EDITION is --edition');
});

test('--edition current judges the backends that declare it and names the others as not judged', async () => {
  const r = await run([...BASE, '--backend', V0_ONLY, '--backend', 'filesystem', '--backend', MODULE, ...CURRENT_JSON]);
  assert.is(r.code, 0, r.err);
  assert.equal(headers(r.out), [
    ['filesystem@current', 'current'],
    ['two-editions@current', 'current'],
  ]);
  assert.equal(
    recs(r.out).filter((x) => x.type === 'not-judged'),
    [
      {
        type: 'not-judged',
        backend: 'reference-module',
        edition: 'current',
        reason: 'does not declare edition:current',
      },
    ],
  );
  for (const record of recs(r.out)) assert.ok(validate(record), JSON.stringify(validate.errors));
  const argv = [...BASE, '--backend', V0_ONLY, '--backend', MODULE, '--edition', 'current'];
  const line = 'reference-module: not judged: does not declare edition:current';
  const pretty = (await run([...argv, '--reporter', 'pretty'])).out;
  // Said where the run starts and again under the count lines.
  assert.is(pretty.split(line).length - 1, 2);
  assert.match(
    (await run([...argv, '--reporter', 'tap'])).out,
    /^# backend reference-module: not judged: does not declare/m,
  );
  assert.match(
    (await run([...argv, '--reporter', 'md'])).out,
    /^- \*\*reference-module\*\*: not judged in edition current: does not declare edition:current$/m,
  );
  assert.match(
    (await run([...argv, '--reporter', 'html'])).out,
    /<p class="not-judged">reference-module: not judged: /,
  );
  assert.match(
    (await run([...argv, '--reporter', 'junit'])).out,
    /<testsuite name="reference-module@current" tests="0"[^\n]*>\n {4}<properties>\n {6}<property name="not-judged" value="does not declare edition:current"\/>\n[^]*<\/testsuites>\n$/,
  );
  const none = await run([...BASE, '--backend', V0_ONLY, '--edition', 'current']);
  assert.is(none.code, 2);
  assert.match(
    none.err,
    /--edition current: reference-module does not declare edition:current, so nothing would be judged/,
  );
  const bad = await run([...BASE, '--backend', V0_ONLY, '--edition', 'v9']);
  assert.is(bad.code, 2);
  assert.match(bad.err, /unknown edition "v9"/);
});

test('every report format shows the edition: headers, the matrix row, JUnit properties, TAP, markdown, HTML', async () => {
  const argv = [...BASE, '--backend', 'filesystem', '--backend', MODULE, '--edition', 'all'];
  const pretty = (await run([...argv, '--reporter', 'pretty'])).out;
  assert.match(pretty, /^two-editions@current \(directory, edition current\): 2 cases/m);
  assert.match(pretty, /^filesystem \(directory, edition v0\)/m);
  assert.match(pretty, /^filesystem@current \(directory, edition current\): 2 cases/m);
  assert.match(
    pretty,
    /^area\s+filesystem\s+filesystem@current\s+two-editions\s+two-editions@current\n-+.*\nedition\s+v0\s+current\s+v0\s+current$/m,
  );
  const md = (await run([...argv, '--reporter', 'md'])).out;
  assert.match(md, /\*\*two-editions@current\*\* \(directory\), edition current, suite/);
  assert.match(md, /^\| edition \| v0 \| current \| v0 \| current \|$/m);
  const junit = (await run([...argv, '--reporter', 'junit'])).out;
  assert.match(junit, /<testsuite name="two-editions@current"[^]*?<property name="edition" value="current"\/>/);
  const tap = (await run([...argv, '--reporter', 'tap'])).out;
  assert.match(tap, /^# backend two-editions@current: edition current, 2 cases/m);
  const html = (await run([...argv, '--reporter', 'html'])).out;
  assert.match(html, /<th>edition<\/th>/);
  assert.match(
    html,
    /<tr class="edition"><th>edition<\/th><td[^>]*>v0<\/td><td[^>]*>current<\/td><td[^>]*>v0<\/td><td[^>]*>current<\/td><\/tr>/,
  );
});

async function saveReport(name: string, argv: string[]): Promise<string> {
  const r = await run([...BASE, '--seed', '5', '--reporter', 'json', ...argv]);
  assert.is(r.code, 0, r.err);
  writeFileSync(join(dir, name), r.out);
  return join(dir, name);
}

test('report merge refuses shards that judged a backend in different editions, naming both', async () => {
  const v0 = await saveReport('v0-1.jsonl', ['--backend', MODULE, '--edition', 'v0', '--shard', '1/2']);
  const cur = await saveReport('cur-2.jsonl', ['--backend', MODULE, '--edition', 'current', '--shard', '2/2']);
  const r = await run(['report', 'merge', v0, cur]);
  assert.is(r.code, 2);
  assert.match(r.err, /E_USAGE/);
  assert.match(r.err, /judges backend two-editions in edition current, .*v0-1\.jsonl judges it in edition v0/);
  // Shards of one --edition all run merge as before.
  const a1 = await saveReport('all-1.jsonl', ['--backend', MODULE, '--shard', '1/2']);
  const a2 = await saveReport('all-2.jsonl', ['--backend', MODULE, '--shard', '2/2']);
  const ok = await run(['report', 'merge', a1, a2, '--reporter', 'json']);
  assert.is(ok.code, 0, ok.err);
  assert.equal(headers(ok.out), [
    ['two-editions', 'v0'],
    ['two-editions@current', 'current'],
  ]);
  // A backend --edition left out is named by the merged report as by each shard.
  const both = ['--backend', V0_ONLY, '--backend', MODULE, ...CUR];
  const [c1, c2] = [
    await saveReport('c-1.jsonl', [...both, '--shard', '1/2']),
    await saveReport('c-2.jsonl', [...both, '--shard', '2/2']),
  ];
  const kept = await run(['report', 'merge', c1, c2, '--reporter', 'json']);
  assert.is(kept.code, 0, kept.err);
  assert.equal(
    recs(kept.out)
      .map((x) => (x.type === 'not-judged' ? `not judged ${x.backend}` : x.type))
      .slice(0, 2),
    ['not judged reference-module', 'header'],
  );
});

test('report diff says when the two sides judged a backend in different editions', async () => {
  const v0 = await saveReport('v0.jsonl', ['--backend', MODULE, '--edition', 'v0']);
  const cur = await saveReport('cur.jsonl', ['--backend', MODULE, '--edition', 'current']);
  const r = await run(['report', 'diff', v0, cur]);
  assert.match(r.out, /two-editions: judged in edition v0 in the old report and current in the new one/);
  const same = await run(['report', 'diff', v0, v0]);
  assert.not.match(same.out, /judged in edition/);
});

test('a report written before editions (no edition field) reads as v0: it merges and reruns as one', async () => {
  const v0 = await saveReport('plain.jsonl', ['--backend', 'filesystem', '--edition', 'v0']);
  const old = join(dir, 'old.jsonl');
  writeFileSync(old, readFileSync(v0, 'utf8').replace(/"edition":"v0",/g, ''));
  assert.not.match(readFileSync(old, 'utf8'), /"edition":/);
  const merged = await run(['report', 'merge', old, '--reporter', 'json']);
  assert.is(merged.code, 0, merged.err);
  assert.equal(headers(merged.out), [['filesystem', 'v0']]);
  const rerun = await run([...BASE, '--rerun-failed', old]);
  assert.is(rerun.code, 0, rerun.err);
  assert.match(rerun.out, /nothing failed or errored/);
});

test('--rerun-failed reruns a failure of the current edition in that edition (a plugin reopened by --backend)', async () => {
  const report = join(dir, 'failing.jsonl');
  const text = readFileSync(await saveReport('f.jsonl', ['--backend', MODULE]), 'utf8');
  // The current edition's a/edition-var failed in this (edited) report; the rerun runs it there only.
  writeFileSync(
    report,
    text.replace(
      /("backend":"two-editions@current","id":"a\/edition-var"[^\n]*?)"status":"passed"[^\n]*}/,
      '$1"status":"failed","step":"s","at":{"file":"f","line":1},"message":"m"}',
    ),
  );
  assert.match(readFileSync(report, 'utf8'), /"status":"failed"/);
  const r = await run([...BASE, '--rerun-failed', report, '--backend', MODULE, ...CURRENT_JSON]);
  assert.is(r.code, 0, r.err);
  assert.equal(cases(r.out), ['two-editions@current a/edition-var passed']);
  // Without --backend the report's run names are reopened as backend strings: the plugin's name is not one.
  const byName = await run([...BASE, '--rerun-failed', report]);
  assert.match(byName.err, /unknown backend "two-editions"/);
});

test('--explain explains the case once per edition judged, each with its edition named; --edition picks one', async () => {
  const r = await run([...BASE, '--backend', MODULE, '--explain', 'a/edition-var']);
  assert.is(r.code, 0, r.err);
  assert.equal(r.out.match(/^backend \S+ \(kind directory; edition \w+;/gm), [
    'backend two-editions (kind directory; edition v0;',
    'backend two-editions@current (kind directory; edition current;',
  ]);
  // The open each backend is sent carries the edition of its storage, as an exec plugin's would.
  assert.match(r.out, /-> \{"type":"open","seq":1,"env":\{[^\n]*"edition":"current"/);
  const one = await run([...BASE, '--backend', MODULE, '--explain', 'a/edition-var', '--edition', 'current']);
  assert.equal(one.out.match(/^outcome: .*/gm), ['outcome: passed (0 layout checks, 0 not applicable)']);
  assert.match(one.out, /^backend two-editions@current /m);
});

test.after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(suiteDir, { recursive: true, force: true });
});
test.run();
