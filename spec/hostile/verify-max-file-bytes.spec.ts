import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyCommand } from '../../src/cli/commands/verify.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/verify/kit/tree-rules.ts';
import { captureIo } from '../verify/run-dir/capture-io.ts';
import { copyValid } from '../verify/run-dir/fixture-copy.ts';

// verify's per-file read cap from the command line (issue 34): --max-file-bytes N and PROSE_STATE_MAX_FILE_BYTES.

interface JsonReport {
  maxFileBytes: number;
  findings: { rule: string; file: string }[];
}

/** A valid run with one 1 MiB (sparse) binding, and `verify` run on it with `argv` after the path. */
async function verifyBig(argv: string[], env: Record<string, string> = {}) {
  const fx = copyValid();
  try {
    const big = join(fx.run, 'bindings', 'big.md');
    writeFileSync(big, '');
    truncateSync(big, 1 << 20);
    const io = captureIo(fx.run, env);
    const code = await verifyCommand.run(['.', ...argv], io);
    return { code, out: io.out(), err: io.err() };
  } finally {
    fx.cleanup();
  }
}

const tooLarge = (r: JsonReport) => r.findings.filter((f) => f.rule === 'tree.too-large').map((f) => f.file);

test('--max-file-bytes 65536: the 1 MiB binding is tree.too-large, and the JSON report names the cap', async () => {
  const r = await verifyBig(['--format', 'json', '--max-file-bytes', '65536']);
  assert.is(r.code, 1, r.err);
  const report = JSON.parse(r.out) as JsonReport;
  assert.equal(tooLarge(report), ['bindings/big.md']);
  assert.is(report.maxFileBytes, 65536);
});

test('without the flag the default cap is used and named: the 1 MiB binding is read', async () => {
  const r = await verifyBig(['--format', 'json']);
  const report = JSON.parse(r.out) as JsonReport;
  assert.equal(tooLarge(report), []);
  assert.is(report.maxFileBytes, DEFAULT_MAX_FILE_BYTES);
});

test('PROSE_STATE_MAX_FILE_BYTES is the twin; the flag wins over it', async () => {
  const fromEnv = await verifyBig(['--format', 'json'], { PROSE_STATE_MAX_FILE_BYTES: '4096' });
  assert.is((JSON.parse(fromEnv.out) as JsonReport).maxFileBytes, 4096);
  assert.equal(tooLarge(JSON.parse(fromEnv.out) as JsonReport), ['bindings/big.md']);
  const both = await verifyBig(['--format', 'json', '--max-file-bytes', '2000000'], {
    PROSE_STATE_MAX_FILE_BYTES: '4096',
  });
  assert.is((JSON.parse(both.out) as JsonReport).maxFileBytes, 2000000);
  assert.equal(tooLarge(JSON.parse(both.out) as JsonReport), []);
});

test('the text report says the cap when one is given', async () => {
  const r = await verifyBig(['--max-file-bytes', '65536']);
  assert.is(r.code, 1);
  assert.match(r.out, 'files over 65536 bytes are not read (--max-file-bytes)');
  assert.match(r.out, 'bindings/big.md: error tree.too-large');
});

for (const bad of ['0', '-1', 'abc', '1.5', '1e6', '', '99999999999999999999']) {
  test(`--max-file-bytes ${JSON.stringify(bad)}: usage error naming the flag and the value`, async () => {
    const r = await verifyBig([`--max-file-bytes=${bad}`]);
    assert.is(r.code, 2, r.err);
    assert.match(r.err, 'E_USAGE');
    assert.match(r.err, `--max-file-bytes must be a positive integer of bytes, got ${JSON.stringify(bad)}`);
  });
}

test('a bad PROSE_STATE_MAX_FILE_BYTES is a usage error too', async () => {
  const r = await verifyBig([], { PROSE_STATE_MAX_FILE_BYTES: 'lots' });
  assert.is(r.code, 2);
  assert.match(r.err, '--max-file-bytes must be a positive integer of bytes, got "lots"');
});

test.run();
