import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { protocolValidator } from '../../src/plugin/protocol-validator.ts';

const v = protocolValidator();

test('a valid hello reply, result and error pass', () => {
  assert.is(
    v.reply({ type: 'hello', seq: 0, protocol: 1, name: 'x', kind: 'directory', capabilities: ['durable'] }),
    undefined,
  );
  assert.is(v.reply({ type: 'result', seq: 4, result: {} }), undefined);
  assert.is(v.reply({ type: 'error', seq: 4, code: 'E_NOT_FOUND', message: 'no run' }), undefined);
});

test('failures name the field and the rule', () => {
  assert.equal(v.reply({ type: 'result', seq: 1 }), { field: 'result', rule: 'is required' });
  assert.equal(v.reply({ type: 'result', seq: 1, result: {}, extra: 1 }), {
    field: 'extra',
    rule: 'is not a field of this message',
  });
  assert.is(v.reply({ type: 'shout', seq: 1 })?.field, 'type');
  assert.match(
    v.reply({ type: 'hello', seq: 0, protocol: 1, name: 'x', kind: 'other', capabilities: ['telepathy'] })!.rule,
    '"telepathy"',
  );
});

test('a plugin may not answer the harness-only codes', () => {
  for (const code of ['E_PLUGIN', 'E_USAGE', 'E_CASE']) {
    assert.is(v.reply({ type: 'error', seq: 1, code, message: 'x' })?.field, 'code');
  }
});

test('call args are left loose on purpose (cases send wrong args), but op is checked', () => {
  assert.is(v.request({ type: 'call', seq: 1, op: 'bind', args: { nonsense: 1 }, actor: { role: 'vm' } }), undefined);
  assert.is(v.request({ type: 'call', seq: 1, op: 'fly', args: {}, actor: { role: 'vm' } })?.field, 'op');
});

test.run();
