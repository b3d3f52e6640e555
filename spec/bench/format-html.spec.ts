import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, runCli } from './cli.ts';

// ONE quick fingerprint run with a candidate saved as JSON, then drawn as a page through --results. The candidate
// is the independent Python OPWM1 writer (spec/canon/fixtures, another language, written from docs/canon.md), so
// the run also checks our addresses against code that is not ours; without python3 it is our own CLI. No
// assertion looks at a time: the verdicts, the page's markup and that it carries every ratio.
const dir = mkdtempSync(join(tmpdir(), 'bench-html-spec-'));
const python = spawnSync('python3', ['--version']).status === 0;
const candidate = python
  ? `py=python3 ${REPO}spec/canon/fixtures/independent_canon.py --dir {}`
  : `py="${process.execPath}" "${REPO}bin/prose-state.js" fingerprint {}`;
const saved = join(dir, 'run.json');
let report: Record<string, any> = {};
let page = '';

test.before(() => {
  const run = runCli(
    [...['bench', '--quick', '--only', 'fingerprint', '--format', 'json'], ...['--candidate', candidate]],
    { env: { ...process.env, PROSE_STATE_BENCH_TMP: dir } },
  );
  assert.is(run.code, 0, run.stderr.slice(-2000));
  report = JSON.parse(run.stdout);
  writeFileSync(saved, run.stdout);
  const html = runCli(['bench', '--results', saved, '--format', 'html']);
  assert.is(html.code, 0, html.stderr);
  page = html.stdout;
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Well-formed XML, checked by hand: every tag closed in order (or self-closed), attributes quoted, no stray `<` or
 * `&` in text. Only the doctype is not XML, and it is first.
 */
function checkWellFormed(xml: string): void {
  assert.ok(xml.startsWith('<!DOCTYPE html>\n'), 'doctype first');
  const body = xml.slice('<!DOCTYPE html>\n'.length);
  const stack: string[] = [];
  const token = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let at = 0;
  for (let m = token.exec(body); m !== null; m = token.exec(body)) {
    at = token.lastIndex;
    const [, close, name, , selfClose, text] = m;
    if (text !== undefined) {
      assert.not.match(text, /&(?!amp;|lt;|gt;|quot;)/, `a bare & in text: ${text.slice(0, 60)}`);
      continue;
    }
    if (close) assert.is(stack.pop(), name, `</${name}> closes ${stack.at(-1) ?? 'nothing'}`);
    else if (!selfClose) stack.push(name!);
  }
  assert.is(at, body.length, `unparsed markup at ${body.slice(at, at + 80)}`);
  assert.equal(stack, [], 'every element closed');
}

test('the page is one well-formed, self-contained document', () => {
  checkWellFormed(page);
  assert.not.match(page, /<script|<link|src="|href="http/);
});

test('it draws one SVG chart per workload, with ours, both limits, the peers and the candidate', () => {
  const svgs = page.match(/<svg /g) ?? [];
  assert.is(svgs.length, report.workloads.length, 'one per workload (no backends in this run)');
  for (const w of report.workloads) {
    assert.ok(page.includes(`${w.description} (${w.name})`), w.name);
    for (const label of ['ours', 'limit (read, then hash)', 'parallel limit (all cores read)', 'candidate py'])
      assert.ok(page.includes(`<title>${label}:`), `${w.name}: ${label}`);
    for (const [p, v] of Object.entries<any>(w.peers))
      if (!('skipped' in v)) assert.ok(page.includes(`<title>peer ${p}:`), `${w.name}: ${p}`);
  }
});

test('the independent Python serializer prints our address on every workload (or python3 is missing)', () => {
  if (!python) console.log('  python3 not on PATH: the candidate was our own CLI, the independent check did not run');
  for (const w of report.workloads) {
    const c = w.candidates.py;
    assert.is(c.verdict, 'ok', `${w.name}: ${JSON.stringify(c)}`);
    assert.is(c.address, w.fingerprint.address);
    assert.ok(c.ratios.limit > 0 && c.ratios.ours > 0);
  }
});

test('it carries every ratio of the flat map, with its value', () => {
  const keys = Object.keys(report.ratios);
  assert.ok(keys.length > 20, `${keys.length} ratios`);
  for (const [k, v] of Object.entries<number>(report.ratios))
    assert.ok(page.includes(`<tr><td>${k}</td><td class="n">${v.toFixed(2)}x</td></tr>`), k);
});

test.run();
