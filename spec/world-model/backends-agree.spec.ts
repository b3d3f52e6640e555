import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { tempEnv } from '../helpers/temp-env.ts';
import { wmBackends } from './_backends.ts';
import { playHistory, readBack } from './_history.ts';

// The design's promise: the same history committed to any backend yields the same addresses and receipt hashes.
test('every backend answers the same history with the same addresses, receipt hashes and reads', async () => {
  const seen: { name: string; answers: unknown[]; after: unknown }[] = [];
  for (const wb of wmBackends()) {
    const env = tempEnv();
    try {
      const { backend } = await wb.open(env);
      const { run } = await backend.call('createRun', { runId: '20260317-143052-a7b3c9', program: 'p\n' }, VM);
      const answers = await playHistory(backend, run);
      const versions = answers.flatMap((a, i) => {
        const v = (a as { r: { version?: unknown } }).r.version;
        return typeof v === 'string' && i !== 3 ? [v] : []; // answer 3 is node b's commit
      });
      await backend.close();
      // Read back after a restart on the same storage.
      const reopened = (await wb.open(env)).backend;
      seen.push({ name: wb.name, answers, after: await readBack(reopened, run, [...new Set(versions)]) });
      await reopened.close();
    } finally {
      env.cleanup();
    }
  }
  assert.ok(seen.length >= 4, `backends run: ${seen.map((s) => s.name).join(', ')}`);
  const [first, ...rest] = seen;
  for (const other of rest) {
    assert.equal(other.answers, first!.answers, `${other.name} answers like ${first!.name}`);
    assert.equal(other.after, first!.after, `${other.name} reads back like ${first!.name}`);
  }
  // A known address runs through every backend: truth.json "{}" of table 3.2 on node b.
  assert.is(
    (first!.after as { b: { version: string } }).b.version,
    'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85',
  );
});

test.run();
