import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ProseError } from '../../src/core/errors.ts';
import { moduleFactory } from '../../src/plugin/module-factory.ts';

const fixture = (name: string) => new URL(`./fixtures/modules/${name}`, import.meta.url).pathname;

async function loadError(name: string): Promise<ProseError> {
  const err = await moduleFactory(fixture(name)).then(
    () => assert.unreachable('should not load'),
    (e: unknown) => e,
  );
  assert.instance(err, ProseError);
  assert.is((err as ProseError).code, 'E_PLUGIN');
  return err as ProseError;
}

test('a factory without open() is refused, naming the export and what is missing', async () => {
  const err = await loadError('no-open.js');
  assert.match(err.message, 'export "factory" has no open() function');
  assert.match(err.message, 'no-open.js');
});

test('a module that throws on load is E_PLUGIN with the cause', async () => {
  const err = await loadError('throws-on-load.js');
  assert.match(err.message, 'module exploded while loading');
  assert.instance(err.cause, Error);
});

test('a module that does not exist is E_PLUGIN', async () => {
  const err = await loadError('not-there.js');
  assert.match(err.message, 'cannot load');
});

test('an unknown capability is named', async () => {
  const err = await loadError('bad-capability.js');
  assert.match(err.message, 'export "default" declares unknown capabilities "telepathy"');
});

test.run();
