import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';

test('the factory exposes the declaration exactly as handshaken', async () => {
  const f = await execFactory(misbehavingCommand('', '', 'MISBEHAVE_CAPS=durable,imports'));
  assert.is(f.name, 'misbehaving');
  assert.is(f.kind, 'other');
  assert.equal([...f.capabilities], ['durable', 'imports']);
  assert.equal(f.declared, {
    type: 'hello',
    seq: 0,
    protocol: 1,
    name: 'misbehaving',
    kind: 'other',
    capabilities: ['durable', 'imports'],
  });
});

test.run();
