import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { createBackend } from '../../src/core/semantics.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { ProseError } from '../../src/core/errors.ts';
import { worldModelHandlers } from '../../src/canon/world-model-ops.ts';
import { FsStore } from '../../src/backends/filesystem/fs-store.ts';
import { tempEnv } from '../helpers/temp-env.ts';

// Declared capabilities are checked both ways: undeclared world-model answers a typed E_UNSUPPORTED.
test('without the capability, or without a world-model store, every world-model op is E_UNSUPPORTED', async () => {
  const env = tempEnv();
  try {
    const store = new FsStore(env.projectDir, env.homeDir, DEFAULT_DECISIONS);
    const undeclared = createBackend({
      store,
      extraHandlers: worldModelHandlers(store),
      decisions: DEFAULT_DECISIONS,
      capabilities: [],
    });
    const { run } = await undeclared.call('createRun', { program: 'p' }, VM);
    const bare = { ...store, readRun: store.readRun.bind(store), worldModel: undefined };
    const noStore = createBackend({
      store: bare as unknown as FsStore,
      extraHandlers: worldModelHandlers(bare as unknown as FsStore),
      decisions: DEFAULT_DECISIONS,
      capabilities: ['world-model', 'receipts'],
    });
    for (const engine of [undeclared, noStore]) {
      for (const [op, args] of [
        ['readPublished', { run, node: 'n' }],
        ['listReceipts', { run }],
        ['readEnvelope', { run }],
      ] as const) {
        try {
          await engine.call(op, args as never, VM);
          assert.unreachable(`${op} answered`);
        } catch (err) {
          assert.instance(err, ProseError);
          assert.is((err as ProseError).code, 'E_UNSUPPORTED', op);
        }
      }
    }
  } finally {
    env.cleanup();
  }
});

test.run();
