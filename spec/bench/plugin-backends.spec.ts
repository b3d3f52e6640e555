import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCliJson } from './cli.ts';

// ONE quick run of the backends section with the reference plugins (stdio and module) and a plugin that dies at
// its handshake. No assertion looks at a time: what was measured, the ratios' presence, the failure and the exit.
const dir = mkdtempSync(join(tmpdir(), 'bench-plugins-spec-'));
const args = [
  'bench',
  '--quick',
  '--only',
  'backends',
  '--format',
  'json',
  '--backend',
  `exec:"${process.execPath}" conformance/plugins/reference/index.js`,
  '--backend',
  'module:conformance/plugins/reference-module/index.js',
  '--backend',
  // A secret on its command line must not reach the report.
  `exec:API_TOKEN=hunter2 "${process.execPath}" -e "process.exit(3)"`,
];
let run: ReturnType<typeof runCliJson>['run'];
let report: Record<string, any> = {};

test.before(() => {
  ({ run, report } = runCliJson(args, { env: { ...process.env, PROSE_STATE_BENCH_TMP: dir } }));
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the plugins are measured beside our filesystem backend, which is added when not named', () => {
  assert.ok(report.backends, `no report: exit ${run.code}\n${run.stderr.slice(-2000)}`);
  const names = report.backends.map((b: any) => b.name);
  assert.equal(names.slice(0, 3), ['filesystem', 'exec:reference', 'module:reference-module']);
  assert.equal(report.workloads, []);
  for (const section of ['receipts', 'memory', 'startup', 'sqlitePeers'])
    assert.match(report[section].skipped, '--only backends', section);
});

test('each plugin has writes, reads and world-model commits, with ratios to the floor and to our backend', () => {
  for (const name of ['exec:reference', 'module:reference-module']) {
    const b = report.backends.find((x: any) => x.name === name);
    for (const k of ['write', 'read', 'commit']) {
      assert.ok(b[k].ms > 0 && b[k].samples > 0, `${name} ${k}`);
      assert.ok(Number.isFinite(b.ratios[k]) && b.ratios[k] > 0, `${name} ratios.${k}`);
      assert.ok(Number.isFinite(b.vsFilesystem[k]) && b.vsFilesystem[k] > 0, `${name} vsFilesystem.${k}`);
      assert.is(report.ratios[`backend.${name}.vsFilesystem.${k}`], b.vsFilesystem[k]);
    }
    assert.match(b.spec, /^(exec|module):/);
  }
  const fs = report.backends.find((x: any) => x.name === 'filesystem');
  assert.ok(fs.commit.ms > 0, 'our backend commits too');
  assert.is(fs.vsFilesystem, undefined);
});

test('a plugin that fails is reported with its error, the rest goes on, and the run exits 1', () => {
  const dead = report.backends.find((b: any) => b.name.includes('process.exit(3)'));
  assert.ok(dead?.failed, JSON.stringify(report.backends.map((b: any) => b.name)));
  assert.match(dead.skipped, 'exited with code 3');
  assert.is(run.code, 1);
  assert.match(run.stderr, /bench: backend exec:API_TOKEN=\*\*\* .* failed: errored: plugin exited with code 3/);
  assert.not.ok(`${run.stdout}${run.stderr}`.includes('hunter2'), 'the secret was printed');
});

test.run();
