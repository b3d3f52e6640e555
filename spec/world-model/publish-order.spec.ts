import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { createBackend } from '../../src/core/semantics.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import type { StateStore, WorldModelStore } from '../../src/core/store.ts';
import { worldModelHandlers } from '../../src/canon/world-model-ops.ts';
import { FsStore } from '../../src/backends/filesystem/fs-store.ts';
import { tempEnv } from '../helpers/temp-env.ts';

// Reference fs-store: the version file is written before the pointer flips; the receipt comes last.
test('rendered: version bytes, then the pointer, then the receipt; skipped and failed write only a receipt', async () => {
  const env = tempEnv();
  const store = new FsStore(env.projectDir, env.homeDir, DEFAULT_DECISIONS);
  const calls: string[] = [];
  const inner = store.worldModel;
  const spy: WorldModelStore = new Proxy(inner, {
    get(target, key, recv) {
      const v = Reflect.get(target, key, recv) as unknown;
      if (typeof v !== 'function' || !/^(write|publish|append)/.test(String(key))) return v;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  (store as { worldModel: WorldModelStore }).worldModel = spy;
  const engine = createBackend({
    store: store as StateStore,
    extraHandlers: worldModelHandlers(store),
    decisions: DEFAULT_DECISIONS,
    capabilities: ['world-model', 'receipts'],
  });
  try {
    const { run } = await engine.call('createRun', { program: 'p' }, VM);
    await engine.call('commitWorldModel', { run, node: 'n', contract: 'c', files: { 'truth.json': '{}' } }, VM);
    assert.equal(calls.splice(0), ['writeVersion', 'publish', 'appendReceipt']);
    await engine.call('commitWorldModel', { run, node: 'n', contract: 'c', files: { 'truth.json': '{}' } }, VM);
    assert.equal(calls.splice(0), ['appendReceipt']);
    await engine.call('failRender', { run, node: 'n', contract: 'c', reason: 'r' }, VM);
    assert.equal(calls.splice(0), ['appendReceipt']);
    await engine.call('writeWorkspace', { run, node: 'n', files: { a: 'b' } }, VM);
    assert.equal(calls.splice(0), ['writeWorkspace']);
  } finally {
    await engine.close();
    env.cleanup();
  }
});

test.run();
