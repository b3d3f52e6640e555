import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import type { Backend, BackendFactory } from '../../src/core/backend.ts';
import { ProseError } from '../../src/core/errors.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { moduleFactory } from '../../src/plugin/module-factory.ts';
import { referenceCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

/** A short history with a restart in the middle, on one factory; returns what was read back. */
async function history(factory: BackendFactory) {
  const env = tempEnv(factory.name);
  let b: Backend = await factory.open(env);
  try {
    const { run } = await b.call('createRun', { program: 'let x = session "a"' }, VM);
    const { executionId } = await b.call('enterFrame', { run, block: 'process' }, VM);
    await b.call('bind', { run, name: 'x', kind: 'const', value: 'root' }, { role: 'subagent', binding: 'x' });
    await b.call(
      'bind',
      { run, name: 'y', kind: 'let', value: 'inner', executionId },
      { role: 'subagent', binding: 'y', executionId },
    );
    const anon = await b.call('allocateAnon', { run }, VM);
    await b.close();
    b = await factory.open(env);
    const rebind = await b
      .call('bind', { run, name: 'x', kind: 'let', value: 'again' }, { role: 'subagent', binding: 'x' })
      .catch((e: ProseError) => e.code);
    const seen = await b.call('resolve', { run, name: 'x', executionId }, VM);
    const resume = await b.call('resume', { run }, VM);
    return {
      anon: anon.name,
      rebind,
      x: seen.value,
      stack: resume.callStack.map((f) => f.executionId),
      anonCount: resume.anonCount,
      bindings: resume.bindings,
    };
  } finally {
    await b.close();
    env.cleanup();
  }
}

test('the stdio reference plugin and the module reference plugin answer the same history, across a restart', async () => {
  const viaExec = await history(await execFactory(referenceCommand));
  const viaModule = await history(
    await moduleFactory(new URL('../../conformance/plugins/reference-module/index.js', import.meta.url).pathname),
  );
  assert.equal(viaExec, viaModule);
  assert.equal(viaExec.rebind, 'E_CONST_REBIND');
  assert.is(viaExec.x, 'root');
  assert.is(viaExec.anon, 'anon_001');
  assert.equal(viaExec.stack, [1]);
});

test('the TypeScript module plugin (typed against the package declarations) answers the same history', async () => {
  const viaModule = await history(
    await moduleFactory(new URL('../../conformance/plugins/reference-module/index.js', import.meta.url).pathname),
  );
  const typed = await moduleFactory(
    new URL('../../conformance/plugins/typed-module/index.ts', import.meta.url).pathname,
  );
  assert.is(typed.name, 'typed-module');
  assert.equal(await history(typed), viaModule);
});

test.run();
