import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempSuite } from '../helpers/temp-suite.ts';

// Issue 34, "Report size is unbounded": a plugin whose name and every error message are 5 MB of hostile text. The
// run must write every report, each small and well-formed, in bounded time and memory (a 4 GB address-space limit).

const BIN = fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url));
const PLUGIN = fileURLToPath(new URL('./fixtures/hostile-plugin.js', import.meta.url));
const CASES = `area: h
cases:
${[1, 2]
  .map(
    (i) =>
      `  - id: h/c${i}\n    title: resolve ${i}\n    steps:\n      - op: resolve\n        args: { name: x }\n        error: E_NOT_FOUND\n`,
  )
  .join('')}`;

test('a 5 MB plugin name and messages: every report file is written, small and well-formed', () => {
  const suite = tempSuite({ 'h.yaml': CASES });
  const dir = mkdtempSync(join(tmpdir(), 'prose-hostile-reports-'));
  try {
    const backend = `exec:HOSTILE=huge-strings exec ${JSON.stringify(process.execPath)} ${JSON.stringify(PLUGIN)}`;
    const r = spawnSync(
      'sh',
      [
        '-c',
        'ulimit -v 4000000; exec "$0" "$@"',
        process.execPath,
        BIN,
        'test',
        '--suite',
        suite,
        '--backend',
        backend,
      ].concat(['--report-dir', dir, '--reporter', 'pretty']),
      { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL', maxBuffer: 64 << 20 },
    );
    assert.ok(r.status === 1 || r.status === 3, `status ${r.status} signal ${r.signal}: ${r.stderr.slice(-500)}`);
    assert.ok(r.stdout.length < 4 << 20, `pretty wrote ${r.stdout.length} characters`);
    const files = readdirSync(dir).sort();
    assert.equal(files, ['report.html', 'report.jsonl', 'report.junit.xml', 'report.md', 'report.tap']);
    for (const f of files)
      assert.ok(statSync(join(dir, f)).size < 4 << 20, `${f}: ${statSync(join(dir, f)).size} bytes`);
    for (const line of readFileSync(join(dir, 'report.jsonl'), 'utf8').trim().split('\n')) JSON.parse(line);
    const py = spawnSync(
      'python3',
      ['-c', 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])', join(dir, 'report.junit.xml')],
      {
        encoding: 'utf8',
      },
    );
    assert.is(py.status, 0, py.stderr);
    assert.match(readFileSync(join(dir, 'report.md'), 'utf8'), /\[cut: \d+ more characters\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(suite, { recursive: true, force: true });
  }
});

test.run();
