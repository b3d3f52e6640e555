import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { formatBindingFile } from '../../../src/core/formats/binding-file.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// Issue 35: verify of a run directory keeps what it needs of each binding file (its kind, its attachment) and drops
// the value once the file is checked, so a run's values are never all held at once. Here 256 values of 1 MiB each
// are verified by a child whose peak RSS must stay under their total: holding them all it peaked at 384 MiB, dropping
// them at 171 MiB (2026-12-05, a loaded 2-core machine). Each value is reported as too large to be left unattached.

const BINDINGS = 256;
const VALUE = 'x'.repeat(1024 * 1024);
const VALUES_MIB = BINDINGS;
/** Preloaded into the child: its peak RSS (getrusage maxrss, KiB) on stderr as it exits. */
const PEAK_RSS =
  'data:text/javascript,process.on("exit",()=>process.stderr.write(`maxrss=${process.resourceUsage().maxRSS}\\n`))';
const ROOT = join(import.meta.dirname, '..', '..', '..');

test('verify of a run directory with 256 MiB of values peaks under 256 MiB', async () => {
  const env = tempEnv();
  try {
    const backend = await filesystemFactory.open(env);
    const { run } = await backend.call('createRun', { program: 'let b0 = session "a"\n' }, { role: 'vm' });
    await backend.close();
    const dir = join(env.projectDir, '.prose', 'runs', run);
    for (let i = 0; i < BINDINGS; i++) {
      const b = { name: `b${i}`, kind: 'let' as const, executionId: null, source: '', value: VALUE };
      writeFileSync(join(dir, 'bindings', `b${i}.md`), formatBindingFile(b));
    }
    const r = spawnSync(
      process.execPath,
      ['--import', PEAK_RSS, join(ROOT, 'bin', 'prose-state.js'), 'verify', dir, '--format', 'json'],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    assert.is(r.signal, null, `verify was killed: ${r.stderr.slice(-400)}`);
    const report = JSON.parse(r.stdout) as { findings: { rule: string }[] };
    const tooLarge = report.findings.filter((f) => f.rule === 'binding.too-large').length;
    assert.is(tooLarge, BINDINGS, `findings: ${r.stdout.slice(0, 400)}`);
    const peakMiB = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1]) / 1024;
    assert.ok(
      peakMiB < VALUES_MIB,
      `verify peaked at ${peakMiB.toFixed(0)} MiB, more than the ${VALUES_MIB} MiB of values`,
    );
  } finally {
    env.cleanup();
  }
});

test.run();
