import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFileReports } from '../../src/cli/report-files.ts';

test('a symlink already in --report-dir is replaced by the report, and its target outside keeps its bytes', () => {
  const root = mkdtempSync(join(tmpdir(), 'prose-report-link-'));
  try {
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'precious bytes\n');
    const dir = join(root, 'reports');
    mkdirSync(dir);
    symlinkSync(outside, join(dir, 'report.md'));
    symlinkSync(outside, join(dir, 'report.jsonl'));
    const files = createFileReports(dir); // flushed with nothing told: every format is still written
    files.flush();
    assert.is(readFileSync(outside, 'utf8'), 'precious bytes\n');
    for (const name of ['report.md', 'report.jsonl']) assert.ok(lstatSync(join(dir, name)).isFile(), name);
    assert.not.ok(
      readdirSync(dir).some((f) => f.endsWith('.tmp')),
      'no temp file left behind',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
