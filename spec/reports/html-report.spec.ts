import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { findChromium } from '../helpers/chromium.ts';
import { captureIo, PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

// Two areas on two backends, with a failure in each area: enough for filters and links to have something to do.
const B_CASES = `area: b
spec: 'a sentence of the seed this area checks'
cases:
  - id: b/passes
    title: a bound value reads back
    steps:
      - op: bind
        args: { name: x, kind: let, value: '1' }
  - id: b/fails
    title: expects another value on purpose
    steps:
      - op: bind
        args: { name: x, kind: let, value: '1' }
      - op: resolve
        args: { name: x }
        expect: { value: '2' }
`;
const suiteDir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES, 'b.yaml': B_CASES });
const reportDir = join(suiteDir, 'report');
let html = '';

test('setup: a run writes report.html', async () => {
  const c = captureIo();
  const code = await main(
    // v0 alone: the rows are counted for one run per backend, and filesystem also declares the current edition.
    [
      'test',
      '--backend',
      'filesystem',
      '--backend',
      'in-context',
      '--edition',
      'v0',
      '--suite',
      suiteDir,
      '--report-dir',
      reportDir,
    ],
    c.io,
  );
  assert.is(code, 1, c.err());
  html = readFileSync(join(reportDir, 'report.html'), 'utf8');
});

test('the page is one file: nothing fetched from elsewhere', () => {
  assert.not.match(html, /<(link|img|iframe)\b/);
  assert.not.match(html, /\bsrc=/);
  assert.not.match(html, /href="(?!#)/);
});

test('each failure shows the case YAML with the failing line marked, expected vs seen and the spec sentence', () => {
  const detail = html.slice(html.indexOf('id="case-filesystem-b_2ffails"'));
  const one = detail.slice(0, detail.indexOf('</div>\n<div class="detail"') + 1 || undefined);
  assert.match(one, /<pre class="yaml">- id: b\/fails\n {2}title: expects another value on purpose/);
  assert.match(one, /<mark> {4}- op: resolve<\/mark>/);
  assert.match(one, /expected<pre class="expected">\{\n {2}&quot;value&quot;: &quot;2&quot;\n\}<\/pre>/);
  assert.match(
    one,
    /seen<pre class="seen">\{\n {2}&quot;name&quot;: &quot;x&quot;,\n {2}&quot;kind&quot;: &quot;let&quot;,\n {2}&quot;value&quot;: &quot;1&quot;/,
  );
  assert.match(one, /spec: a sentence of the seed this area checks/);
  assert.match(one, /<a href="#m-filesystem-b">matrix cell<\/a>/);
});

const chromium = findChromium();
if (!chromium) {
  console.log(
    'skipped: the HTML report in a real browser: no chromium on PATH (apt-get install chromium, or set PROSE_STATE_CHROMIUM)',
  );
  test.skip(
    'the HTML report in Chromium: opens, filters hide and show rows, links land on the case, no console errors',
  );
} else
  test('the HTML report in Chromium: opens, filters hide and show rows, links land on the case, no console errors', async () => {
    const { chromium: driver } = await import('playwright-core');
    const browser = await driver.launch({ executablePath: chromium, headless: true });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(pathToFileURL(join(reportDir, 'report.html')).href);
      assert.is(await page.title(), 'prose-state compliance');
      const rows = () => page.locator('tr.case-row:visible');
      const shown = async () => Number(await page.locator('#shown').textContent());
      // 5 cases on 2 backends.
      assert.is(await rows().count(), 10);
      assert.is(await shown(), 10);

      await page.selectOption('#filter-area', 'b');
      assert.is(await rows().count(), 4);
      assert.equal([...new Set(await rows().evaluateAll((rs) => rs.map((r) => r.getAttribute('data-area'))))], ['b']);
      assert.is(await page.locator('#matrix tr[data-area="a"]').isVisible(), false);
      await page.selectOption('#filter-backend', 'in-context');
      assert.is(await rows().count(), 2);
      assert.is(await page.locator('#m-filesystem-b').isVisible(), false);
      assert.is(await page.locator('#m-in-context-b').isVisible(), true);
      await page.selectOption('#filter-outcome', 'failed');
      assert.equal(await rows().evaluateAll((rs) => rs.map((r) => r.id)), ['row-in-context-b_2ffails']);
      assert.is(await page.locator('.detail:visible').count(), 1);
      for (const f of ['area', 'backend', 'outcome']) await page.selectOption(`#filter-${f}`, '');
      assert.is(await shown(), 10);

      // The red cell of a on filesystem links to its failure; the failure links back to the cell and to its row.
      await page.click('#m-filesystem-a a');
      assert.is(new URL(page.url()).hash, '#case-filesystem-a_2ffails');
      const target = page.locator('.detail:target');
      assert.is(await target.isVisible(), true);
      assert.match((await target.locator('h3').textContent()) ?? '', /^filesystem a\/fails/);
      await target.locator('a', { hasText: 'matrix cell' }).click();
      assert.is(new URL(page.url()).hash, '#m-filesystem-a');
      await page.click('#m-filesystem-b a');
      await page.locator('.detail:target a', { hasText: 'case row' }).click();
      assert.is(await page.locator('tr:target').getAttribute('id'), 'row-filesystem-b_2ffails');

      // A link to a case a filter hides clears the filters, so it lands on something a person sees.
      await page.selectOption('#filter-outcome', 'passed');
      assert.is(await page.locator('#case-in-context-b_2ffails').isVisible(), false);
      await page.evaluate('location.hash = "case-in-context-b_2ffails"');
      await page.locator('#case-in-context-b_2ffails').waitFor({ state: 'visible' });
      assert.is(await page.locator('#filter-outcome').inputValue(), '');
      assert.equal(problems, []);
    } finally {
      await browser.close();
    }
  });

test.run();
