import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BackendFactory } from '../../src/core/backend.ts';
import { runCrashStates } from '../../src/conformance/run-crash-states.ts';
import type { WorkerContext } from '../../src/conformance/run-workers.ts';

// A real PostgreSQL backend is multi-process and durable, so crash-states ran on it in CI and failed: the states
// built from its attachment files sat beside rows the server had committed. A server's storage is not applicable.
test('crash-states is not applicable to a backend whose storage is a database server', async () => {
  let closed = false;
  const factory = { name: 'postgres:real', kind: 'postgres' } as BackendFactory;
  const ctx = {
    factory,
    close: async () => {
      closed = true;
    },
  } as unknown as WorkerContext;
  const verdict = await runCrashStates(
    { kind: 'crash-states', workload: 'bindings', start: 0, count: 3, maxStates: 5 } as never,
    ctx,
  );
  assert.ok('skip' in verdict, JSON.stringify(verdict));
  assert.match(
    (verdict as { skip: string }).skip,
    /^not applicable: postgres:real keeps its state in a database server/,
  );
  assert.not.ok(closed, 'nothing was started or closed');
});

test.run();
