import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { PluginError } from '../../src/plugin/plugin-error.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';

async function startError(command: string): Promise<PluginError> {
  const t0 = Date.now();
  const err = await execFactory(command, { timeoutMs: 2000 }).then(
    () => assert.unreachable('should not start'),
    (e: unknown) => e,
  );
  assert.ok(Date.now() - t0 < 2000, 'a startup failure must be reported before the timeout');
  assert.instance(err, PluginError);
  return err as PluginError;
}

test('a plugin that exits at once: E_PLUGIN with its exit code and stderr', async () => {
  const err = await startError(misbehavingCommand('exit-at-once'));
  assert.is(err.evidence.exitCode, 4);
  assert.match(err.message, 'exiting at once as told');
  assert.match(err.evidence.request ?? '', 'hello');
});

test("a command that does not exist: E_PLUGIN with the shell's message and a hint", async () => {
  const err = await startError('prose-state-no-such-plugin-xyz --flag');
  assert.is(err.evidence.exitCode, 127);
  assert.match(err.message, 'not found');
  assert.match(err.hint ?? '', 'did not find the command');
});

test('a protocol version mismatch names both versions', async () => {
  const err = await startError(misbehavingCommand('wrong-version', 'hello'));
  assert.match(err.message, 'the plugin speaks protocol 99, this harness speaks protocol 1');
  assert.is(err.location?.field, 'protocol');
});

test('an unknown capability in hello fails the schema, naming it', async () => {
  const err = await startError(misbehavingCommand('bad-capability', 'hello'));
  assert.is(err.location?.field, 'capabilities.0');
  assert.match(err.message, '"telepathy"');
});

test('a plugin refusing the handshake with an error reply', async () => {
  const err = await startError(misbehavingCommand('refuse-hello', 'hello'));
  assert.match(err.message, 'refused the handshake: E_UNSUPPORTED this plugin speaks protocol 2 only');
});

test('a plugin hanging on hello times out', async () => {
  const err = await execFactory(misbehavingCommand('hang', 'hello'), { startTimeoutMs: 300 }).catch((e: unknown) => e);
  assert.match((err as PluginError).message, 'no reply to hello (seq 0) within 300 ms');
});

test.run();
