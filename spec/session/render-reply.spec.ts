import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSubagentOutput, RENDER_RULES } from '../../src/session/index.ts';
import { verifyCommand } from '../../src/cli/commands/verify.ts';

/** A current-edition run built from the upstream texts alone: <root>/runs/{id}/ with vm.log.md and a workspace. */
function run(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'prose-render-reply-'));
  const dir = join(root, 'runs', '20260722-101500-a1b2c3');
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put('vm.log.md', '# vm.log\n');
  put('workspace/report/summary.md', 'Three findings.\n');
  put('workspace/scout/__error.md', '# Error: no-results\n\nNothing found.\n');
  put('workspace/server/__delegate/synthesizer/req-001.md', 'Synthesize.\n');
  put('world-model/monitor/exposures.md', '3\n');
  put('world-model/monitor/.version', 'sha256:abc\n');
  put('receipts/monitor.jsonl', '{"node":"monitor","status":"rendered"}\n');
  return { root, dir };
}
const rules = async (text: string, node?: string) => {
  const { dir } = run();
  const fs = await checkSubagentOutput(text, dir, node ? { expect: { node } } : {});
  return fs.map((f) => f.rule).sort();
};

test("prose.md's completion reply naming workspace files checks clean; the run's edition is read from its layout", async () => {
  const reply =
    'Render complete: report\nOutputs written:\n  - summary: workspace/report/summary.md\nSummary: Three findings.\n';
  assert.equal(await rules(reply, 'report'), []);
});

test("session.md's committed reply is checked against .version and the newest receipt", async () => {
  const ok =
    'Render committed: monitor\nWorld-model: world-model/monitor/ (sha256:abc)\nReceipt: rendered\nSummary: 3.\n';
  assert.equal(await rules(ok), []);
  assert.equal(await rules(ok.replace('sha256:abc', 'sha256:def')), ['render.world-model-mismatch']);
  assert.equal(await rules(ok.replace('Receipt: rendered', 'Receipt: failed')), ['render.receipt-mismatch']);
});

test('both error replies are read; __error.md must exist and give the same name under either heading', async () => {
  const prose = 'Render error: scout\nError: no-results\nDetails: workspace/scout/__error.md\n';
  assert.equal(await rules(prose), []);
  const session =
    'Render failed: scout\nError: no-results\nDetails: workspace/scout/__error.md\nPrior world-model stands.\n';
  assert.equal(await rules(session), []);
  assert.equal(await rules(prose.replace('Error: no-results', 'Error: timeout')), ['render.error-file']);
  assert.equal(await rules(prose.replace(/scout/g, 'report')), ['render.error-file']);
});

test('a v0 reply, a mixed reply, a missing output and a world-model path are each their own finding', async () => {
  assert.equal(await rules('Binding written: report\nLocation: bindings/report.md\nSummary: s\n', 'report'), [
    'render.reply-v0',
  ]);
  const mixed =
    'Render complete: report\nReceipt: rendered\nOutputs written:\n  - summary: workspace/report/summary.md\nSummary: s\n';
  assert.equal(await rules(mixed), ['render.reply-mixed']);
  const missing = 'Render complete: report\nOutputs written:\n  - notes: workspace/report/notes.md\nSummary: s\n';
  assert.equal(await rules(missing), ['render.output-missing']);
  const wm =
    'Render complete: monitor\nOutputs written:\n  - exposures: world-model/monitor/exposures.md\nSummary: s\n';
  assert.equal(await rules(wm), ['render.world-model-write']);
  assert.equal(await rules('All done, here is the report.\n'), ['render.extra-text', 'render.reply-missing']);
});

test('a delegation request names its file under __delegate/{delegate}/; a response path or a missing file is a finding', async () => {
  assert.equal(await rules('Delegate: synthesizer\nRequest: workspace/server/__delegate/synthesizer/req-001.md\n'), []);
  assert.equal(
    await rules('Delegate: synthesizer\nRequest: workspace/server/__delegate/synthesizer/req-001-response.md\n'),
    ['render.delegate-request'],
  );
  assert.equal(await rules('Delegate: synthesizer\nRequest: workspace/server/__delegate/synthesizer/req-002.md\n'), [
    'render.delegate-request',
  ]);
});

test('a reply naming another node than the one the VM rendered is a finding', async () => {
  const reply = 'Render complete: report\nOutputs written:\n  - summary: workspace/report/summary.md\nSummary: s\n';
  assert.ok((await rules(reply, 'scout')).includes('render.node-mismatch'));
});

test('verify --subagent-output reads a render reply against a current run: exit 1 and the rule id on a v0 reply', async () => {
  const { root, dir } = run();
  writeFileSync(join(root, 'reply.txt'), 'Binding written: report\nLocation: bindings/report.md\nSummary: s\n');
  let out = '';
  const io = {
    stdout: { write: (s: string | Uint8Array) => void (out += String(s)) },
    stderr: { write: () => {} },
    env: {},
    cwd: root,
  };
  assert.is(await verifyCommand.run([dir, '--subagent-output', 'reply.txt'], io), 1);
  assert.match(out, /error render\.reply-v0/);
  writeFileSync(join(root, 'ok.txt'), 'Render error: scout\nError: no-results\nDetails: workspace/scout/__error.md\n');
  out = '';
  assert.is(await verifyCommand.run([dir, '--subagent-output', 'ok.txt'], io), 0, out);
});

test('a current run kept in state.db has no render reply: the binding confirmation of sqlite.md is expected there', async () => {
  // Decision current-sql-subagent: the current sqlite.md keeps "Binding written:"; a render's reply is not one.
  const { dir } = run();
  writeFileSync(join(dir, 'state.db'), '');
  const rules = (await checkSubagentOutput('Render complete: report\n', dir)).map((f) => f.rule);
  assert.ok(rules.includes('message.binding-missing'), rules.join(', '));
  assert.ok(!rules.some((r) => r.startsWith('render.')), rules.join(', '));
});

test('docs/session-protocol.md lists every render rule with its severity', () => {
  const doc = readFileSync(new URL('../../docs/session-protocol.md', import.meta.url), 'utf8');
  for (const [rule, r] of Object.entries(RENDER_RULES))
    assert.ok(doc.includes(`| \`${rule}\` | ${r.severity} |`), `docs/session-protocol.md has no row for ${rule}`);
});

test.run();
