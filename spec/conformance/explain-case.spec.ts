import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { captureIo, tempSuite } from '../helpers/temp-suite.ts';

const reference = fileURLToPath(new URL('../../conformance/plugins/reference/index.js', import.meta.url));
const execReference = `exec:${JSON.stringify(process.execPath)} ${JSON.stringify(reference)}`;

// A case that fails on purpose on every backend: the value read back is not the one expected.
const suiteDir = tempSuite({
  'a.yaml': `area: a
cases:
  - id: a/wrong-value
    title: expects the wrong value on purpose
    steps:
      - op: bind
        args: { name: x, kind: let, value: stored }
      - op: resolve
        args: { name: x }
        expect: { value: other }
      - op: listBindings
`,
});

const lines = (text: string) => text.split('\n');

test('--explain on the reference exec plugin (a real child process) prints each message as written and the reply, then expected vs seen', async () => {
  const c = captureIo();
  const code = await main(
    ['test', '--suite', suiteDir, '--backend', execReference, '--explain', 'a/wrong-value'],
    c.io,
  );
  assert.is(code, 1, c.err());
  const out = lines(c.out());
  const sent = out.filter((l) => l.startsWith('-> ')).map((l) => JSON.parse(l.slice(3)));
  const received = out.filter((l) => l.startsWith('<- ')).map((l) => JSON.parse(l.slice(3)));
  // Handshake of the factory, then the case's own process: hello, open, createRun, bind, resolve, close.
  assert.equal(
    sent.map((m) => m.op ?? m.type),
    ['hello', 'hello', 'open', 'createRun', 'bind', 'resolve', 'close'],
  );
  assert.equal(
    received.map((m) => m.type),
    ['hello', 'hello', 'result', 'result', 'result', 'result', 'result'],
  );
  const bind = sent.find((m) => m.op === 'bind');
  assert.equal(bind.actor, { role: 'subagent', binding: 'x', executionId: null });
  assert.is(
    received.find((m) => m.seq === sent.find((x) => x.op === 'resolve').seq && m.type === 'result').result.value,
    'stored',
  );
  const text = c.out();
  assert.match(text, /step .*a\.yaml:8: resolve, expects a result containing \{"value":"other"\}/);
  assert.match(text, /outcome: FAILED at .*a\.yaml:8/);
  assert.match(text, /expected: \{"value":"other"\}/);
  assert.match(text, /seen: +\{"name":"x","kind":"let","value":"stored"/);
  // The step after the failure is not run.
  assert.not.ok(sent.some((m) => m.op === 'listBindings'));
});

test('--explain on a built-in backend prints the equivalent messages: same shapes, errors as error replies', async () => {
  const c = captureIo();
  // v0 alone: --explain explains the case once per edition judged, and filesystem also declares the current edition.
  const argv = [
    'test',
    '--suite',
    suiteDir,
    '--backend',
    'filesystem',
    '--edition',
    'v0',
    '--explain',
    'a/wrong-value',
  ];
  const code = await main(argv, c.io);
  assert.is(code, 1);
  const out = lines(c.out());
  const sent = out.filter((l) => l.startsWith('-> ')).map((l) => JSON.parse(l.slice(3)));
  assert.equal(
    sent.map((m) => m.op ?? m.type),
    ['open', 'createRun', 'bind', 'resolve', 'close'],
  );
  assert.equal(
    sent.map((m) => m.seq),
    [1, 2, 3, 4, 5],
  );
  assert.match(c.out(), /built-in or module backend/);
});

test('--explain with an unknown case or more than one backend is a usage error', async () => {
  const c = captureIo();
  assert.is(await main(['test', '--suite', suiteDir, '--backend', 'filesystem', '--explain', 'a/none'], c.io), 2);
  assert.match(c.err(), /no case "a\/none"/);
  const d = captureIo();
  assert.is(await main(['test', '--suite', suiteDir, '--explain', 'a/wrong-value'], d.io), 2);
  assert.match(d.err(), /exactly one --backend/);
});

test.after(() => rmSync(suiteDir, { recursive: true, force: true }));
test.run();
