import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { VM } from '../../src/core/actor.ts';
import type { BackendEnv } from '../../src/core/backend.ts';
import type { WorldModelStore } from '../../src/core/store.ts';
import { rebuildPublished } from '../../src/canon/world-model-rebuild.ts';
import { tempEnv } from '../helpers/temp-env.ts';
import { wmBackends } from './_backends.ts';
import { playHistory } from './_history.ts';

type Any = Record<string, never> & { [k: string]: unknown };

/** Drops each backend's published pointer: the one projection of the world-model (decision wm-projection). */
const DROP: Record<string, (wm: WorldModelStore, env: BackendEnv, run: string) => Promise<void>> = {
  filesystem: async (_wm, env, run) =>
    rmSync(join(env.projectDir, '.prose/runs', run, 'world-model'), { recursive: true }),
  sqlite: async (wm, _env, run) => {
    const file = await (
      (wm as unknown as Any).runFile as (
        r: string,
      ) => Promise<{ write(fn: (db: { exec(s: string): void }) => void): Promise<void> }>
    )(run);
    await file.write((db) => db.exec('DELETE FROM world_model_published'));
  },
  'postgres:real': async (wm) => DROP.postgres!(wm, undefined as never, ''),
  postgres: async (wm) => {
    await ((wm as unknown as Any).db as { query(s: string): Promise<unknown> }).query(
      'DELETE FROM openprose.world_model_published',
    );
  },
  'in-context': async (wm) => {
    // The narrator is the TranscriptStore; its conversation holds the text.
    const c = ((wm as unknown as Any).t as Any).conversation as { text: string };
    c.text = c.text.replace(/^\[WorldModel\] Published: .*\n/gm, '');
  },
};

test('a dropped published pointer, rebuilt from receipts and versions, answers the same readPublished on every backend', async () => {
  let checked = 0;
  for (const wb of wmBackends()) {
    const env = tempEnv();
    try {
      const { backend, store } = await wb.open(env);
      const { run } = await backend.call('createRun', { program: 'p' }, VM);
      await playHistory(backend, run);
      const read = (node: string) => backend.call('readPublished', { run, node }, VM);
      const before = { a: await read('a'), b: await read('b') };
      await DROP[wb.name]!(store, env, run);
      assert.is((await read('a')).version, null, `${wb.name}: the pointer is gone`);
      assert.is(await rebuildPublished(store, run, 'a'), before.a.version);
      assert.is(await rebuildPublished(store, run, 'b'), before.b.version);
      assert.is(await rebuildPublished(store, run, 'never'), null);
      assert.equal({ a: await read('a'), b: await read('b') }, before, wb.name);
      await backend.close();
      checked += 1;
    } finally {
      env.cleanup();
    }
  }
  assert.ok(checked >= 4);
});

test.run();
