import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { captureIo } from './capture-io.ts';
import { copyValid } from './fixture-copy.ts';

test('--format json prints {kind, path, findings, counts} and honours --threshold', async () => {
  const c = copyValid();
  try {
    const io = captureIo(c.prose);
    // Every inline value in the fixture is over 10 bytes: each binding is a too-large warning, and still exit 0.
    const code = await verifyCommand.run(['.', '--format', 'json', '--threshold', '10'], io);
    assert.is(code, 0);
    const report = JSON.parse(io.out()) as {
      kind: string;
      path: string;
      findings: { rule: string; severity: string; file: string }[];
      counts: { errors: number; warnings: number };
    };
    assert.is(report.kind, 'prose-dir');
    assert.is(report.path, '.');
    assert.ok(report.findings.length >= 3);
    assert.ok(report.findings.every((f) => f.rule === 'binding.too-large' && f.severity === 'warning'));
    assert.equal(report.counts, { errors: 0, warnings: report.findings.length });
  } finally {
    c.cleanup();
  }
});

test.run();
