import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { referenceCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

// Line framing (docs/protocol.md "Lines"): a protocol line ends at \n only, and a writer escapes the characters
// JSON leaves raw that other readers split on, so no reader can cut a message in two.
const SPLITTER = fileURLToPath(new URL('../helpers/line-splitting-plugin.js', import.meta.url));
const splitterCommand = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(SPLITTER)}`;
const RAW = /[\u0085\u2028\u2029]/;
const VALUE = 'one\u2028two\u2029three\u0085four';
const subagent = (binding: string) => ({ role: 'subagent' as const, binding });

test('the host writes U+2028, U+2029 and U+0085 as \\u escapes on the wire, and the value arrives intact', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-wire-'));
  const wire = join(dir, 'wire.jsonl');
  const env = tempEnv('wire');
  try {
    // tee keeps a copy of every byte the host wrote to the plugin's stdin.
    const b = await (await execFactory(`tee ${JSON.stringify(wire)} | ${referenceCommand}`)).open(env);
    try {
      const { run } = await b.call('createRun', { program: 'p' }, VM);
      await b.call('bind', { run, name: 'x', kind: 'let', value: VALUE }, subagent('x'));
      assert.is((await b.call('resolve', { run, name: 'x' }, VM)).value, VALUE);
    } finally {
      await b.close();
    }
    const text = readFileSync(wire, 'utf8');
    assert.not.match(text, RAW, 'a raw line separator reached the wire');
    assert.ok(text.includes('one\\u2028two\\u2029three\\u0085four'), 'the value is not on the wire as escapes');
    const lines = text.split('\n');
    assert.is(lines.pop(), '', 'the last line ends with \\n');
    for (const line of lines) JSON.parse(line);
    assert.ok(
      lines.some((l) => JSON.parse(l).args?.value === VALUE),
      'no bind line carries the value',
    );
  } finally {
    env.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the line-splitting fixture does cut a raw U+2028 (so the next test shows the host, not a lenient reader)', () => {
  const raw = `${JSON.stringify({ type: 'hello', seq: 0, protocol: 1, suite: 'a\u2028b' })}\n`;
  const escaped = `${JSON.stringify({ type: 'hello', seq: 1, protocol: 1, suite: 'a\u2028b' }).replace('\u2028', '\\u2028')}\n`;
  const r = spawnSync(process.execPath, [SPLITTER], { input: raw + escaped, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const replies = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { seq: number });
  assert.equal(
    replies.map((m) => m.seq),
    [1],
    'only the escaped hello is answered',
  );
  assert.match(r.stderr, 'a cut message');
});

test('a plugin whose reader splits on U+2028/U+2029/U+0085 gets whole messages from the host', async () => {
  const env = tempEnv('splitter');
  // A cut message is never answered: a short timeout turns that into an E_PLUGIN here instead of a hang.
  const b = await (await execFactory(splitterCommand, { timeoutMs: 5000 })).open(env);
  try {
    const { run } = await b.call('createRun', { program: 'p\u2028q' }, VM);
    await b.call('bind', { run, name: 'x', kind: 'let', value: VALUE }, subagent('x'));
    assert.is((await b.call('resolve', { run, name: 'x' }, VM)).value, VALUE);
    // hostile-input/name-line-separators: the name is refused by the backend, not lost on the way to it.
    const err = await b.call('bind', { run, name: 'a\u2028b', kind: 'let', value: 'v' }, subagent('a\u2028b')).then(
      () => undefined,
      (e: { code?: string }) => e,
    );
    assert.is(err?.code, 'E_INVALID_NAME');
  } finally {
    await b.close();
    env.cleanup();
  }
});

test('the reference plugin splits on \\n only and escapes line separators in what it writes', () => {
  const env = tempEnv('reference-raw');
  try {
    const { projectDir, homeDir, storageKey, decisions } = env;
    // Raw U+2028/U+2029/U+0085 inside the strings, as a writer that does not escape them would send.
    const lines = [
      { type: 'hello', seq: 0, protocol: 1, suite: 's' },
      { type: 'open', seq: 1, env: { projectDir, homeDir, storageKey, decisions } },
      { type: 'call', seq: 2, op: 'createRun', args: { runId: '20260101-000000-abcdef', program: VALUE }, actor: VM },
      { type: 'call', seq: 3, op: 'getRun', args: { run: '20260101-000000-abcdef' }, actor: VM },
      { type: 'close', seq: 4 },
    ]
      .map((m) => `${JSON.stringify(m)}\n`)
      .join('');
    const r = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('../../conformance/plugins/reference/index.js', import.meta.url))],
      { input: lines, encoding: 'utf8' },
    );
    assert.is(r.status, 0, r.stderr);
    assert.not.match(r.stdout, RAW, 'the plugin wrote a raw line separator');
    assert.ok(r.stdout.includes('one\\u2028two\\u2029three\\u0085four'), r.stdout);
    const replies = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { seq: number; type: string; result?: { program?: string } });
    assert.equal(
      replies.map((m) => `${m.seq} ${m.type}`),
      ['0 hello', '1 result', '2 result', '3 result', '4 result'],
      r.stderr,
    );
    assert.is(replies[3]!.result?.program, VALUE);
  } finally {
    env.cleanup();
  }
});

test.run();
