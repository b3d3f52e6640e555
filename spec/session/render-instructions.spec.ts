import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instructionsCommand } from '../../src/cli/commands/instructions.ts';
import { checkSubagentOutput, followRender } from '../../src/session/index.ts';
import { cliIo } from './helpers/cli-io.ts';

function cli(cwd: string) {
  const { io, out } = cliIo(cwd);
  return { io, out, run: (argv: string[]) => instructionsCommand.run(argv, io) };
}

function currentRun(withLog: boolean): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'prose-render-instr-'));
  const dir = join(root, 'runs', '20260722-101500-a1b2c3');
  mkdirSync(join(dir, 'sources'), { recursive: true });
  writeFileSync(join(dir, 'sources', 'report.prose.md'), '# report\n\n### Maintains\n- summary\n');
  if (withLog) writeFileSync(join(dir, 'vm.log.md'), '# vm.log\n');
  return { root, dir };
}
const renderArgs = ['--node', 'report', '--output', 'summary', '--error', 'no-results'];

test('--edition current prints the render prompt: the edition, the contract, the workspace, the reply; followed, it checks clean', async () => {
  const { root, dir } = currentRun(false);
  const c = cli(root);
  const argv = [
    '--backend',
    'filesystem',
    '--run',
    'runs/20260722-101500-a1b2c3',
    '--edition',
    'current',
    ...renderArgs,
  ];
  assert.is(await c.run(argv), 0, c.out.stderr);
  const text = c.out.stdout;
  assert.match(text, /^Edition: current/);
  assert.match(text, /### Maintains\n- summary/);
  assert.match(text, /Write all your work to: <openprose-root>\/runs\/20260722-101500-a1b2c3\/workspace\/report\//);
  const reply = followRender(text, { outputs: { summary: 'Two findings.\n' }, summary: 'Two findings.' });
  assert.is(readFileSync(join(dir, 'workspace', 'report', 'summary.md'), 'utf8'), 'Two findings.\n');
  assert.equal(await checkSubagentOutput(reply, dir, { expect: { node: 'report' } }), []);
  const failed = followRender(text, { outputs: {}, summary: '', error: { name: 'no-results', description: 'None.' } });
  assert.match(readFileSync(join(dir, 'workspace', 'report', '__error.md'), 'utf8'), /^# Error: no-results\n/);
  assert.equal(await checkSubagentOutput(failed, dir, { expect: { node: 'report' } }), []);
});

test("without --edition the edition is the run directory's: vm.log.md makes it current", async () => {
  const { root } = currentRun(true);
  const c = cli(root);
  assert.is(await c.run(['--backend', 'filesystem', '--run', 'runs/20260722-101500-a1b2c3', ...renderArgs]), 0);
  assert.match(c.out.stdout, /^Edition: current/);
});

test('the current edition on SQL storage is refused: its texts define no render contract there', async () => {
  const { root } = currentRun(true);
  for (const backend of ['sqlite', 'postgres']) {
    const c = cli(root);
    const argv = ['--backend', backend, '--run', 'runs/20260722-101500-a1b2c3', '--edition', 'current', ...renderArgs];
    assert.is(await c.run(argv), 3);
    assert.match(c.out.stderr, /E_UNSUPPORTED: the current edition defines no render contract/);
  }
});

test('v0 instructions name their edition first; render options are refused there', async () => {
  const root = mkdtempSync(join(tmpdir(), 'prose-render-instr-v0-'));
  mkdirSync(join(root, '.prose', 'runs', '20260115-143052-a7b3c9'), { recursive: true });
  const c = cli(root);
  const argv = ['--backend', 'filesystem', '--run', '.prose/runs/20260115-143052-a7b3c9', '--binding', 'research'];
  assert.is(await c.run(argv), 0, c.out.stderr);
  assert.match(c.out.stdout, /^Edition: v0 /);
  assert.match(c.out.stdout, /Binding written: research/);
  const d = cli(root);
  assert.is(await d.run([...argv, '--node', 'x']), 2);
  assert.match(d.out.stderr, /--node belongs to a render/);
});

test.run();
