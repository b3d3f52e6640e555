import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { captureIo } from '../helpers/temp-suite.ts';

// Decision skip-rule: a run under before-render says so in every report, and runs the cases of that reading.
test('--decision skip-rule=before-render runs its cases on filesystem and every report names the reading', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-readings-reports-'));
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  try {
    const c = captureIo();
    const argv = ['test', '--backend', 'filesystem', '--edition', 'v0', '--no-probe', '--report-dir', dir];
    const cases = ['--case', 'receipts/before-render-*', '--case', 'receipts/after-render-*'];
    const code = await main([...argv, ...cases, '--decision', 'skip-rule=before-render'], c.io);
    assert.is(code, 0, c.out() + c.err());
    assert.match(c.out(), /^conformance: 4 passed, 0 failed, 2 skipped$/m);
    assert.match(c.out(), /decisions: [^\n]*skipRule=before-render, semanticDiff=computed/);
    const header = JSON.parse(read('report.jsonl').split('\n')[0]!) as { decisions: Record<string, unknown> };
    assert.equal([header.decisions.skipRule, header.decisions.semanticDiff], ['before-render', 'computed']);
    assert.match(read('report.junit.xml'), /<property name="decisions" value="[^"]*skipRule=before-render[^"]*"\/>/);
    assert.match(read('report.md'), /decisions: [^\n]*skipRule=before-render/);
    assert.match(
      read('report.junit.xml'),
      /checks the after-render reading of decision skipRule; this run pins before-render/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--decision takes a reading by name and refuses one that is not a reading of it', async () => {
  const c = captureIo();
  const code = await main(['test', '--backend', 'filesystem', '--decision', 'skip-rule=later'], c.io);
  assert.is(code, 2);
  assert.match(c.err(), /decision "skip-rule" is one of after-render, before-render, got "later"/);
});

test.run();
