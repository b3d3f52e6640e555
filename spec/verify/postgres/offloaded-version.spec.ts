import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import { checkPgSchema } from '../../../src/verify/postgres/check-pg-schema.ts';
import type { PgSchemaReader } from '../../../src/verify/postgres/pg-reader.ts';
import { onEachEngine, type TestFactory } from '../../backends/postgres/engines.ts';
import { tempEnv, VM } from '../../backends/postgres/helpers.ts';
import { readerFor } from './reader-for.ts';

// A current-edition version offloaded to attachment_path (postgres.md: "artifact BYTEA, -- canonical serialization
// (or attachment_path for large)"; attachments/ under runs/{id}/). The row names no run, so the path is read from the
// openprose root `postgres:env` found its URL in, under runs/{id}/attachments/ (decision verify-db-offloaded-version).
type Plant = (o: {
  root: string;
  run: string;
  bytes: Buffer;
  offload(path: string): Promise<void>;
}) => void | Promise<void>;

async function rulesAfter(factory: TestFactory, label: string, plant: Plant, withRoot = true): Promise<string[]> {
  const env = tempEnv();
  try {
    const b = await factory.open({ ...env, edition: 'current' });
    const { run } = await b.call('createRun', { program: 'session "a"\n' }, VM);
    const { version } = await b.call(
      'commitWorldModel',
      { run, node: 'n', contract: 'c', files: { 'a.md': 'big\n' } },
      VM,
    );
    await b.close();
    const db = (await factory.openDb({ ...env, edition: 'current' })) as PgDb;
    const [row] = await db.query('SELECT artifact FROM openprose.world_model_version WHERE version = $1', [version]);
    const raw = row!.artifact;
    const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw).replace(/^\\x/, ''), 'hex');
    const offload = async (path: string) => {
      await db.query(
        'UPDATE openprose.world_model_version SET artifact = NULL, attachment_path = $1 WHERE version = $2',
        [path, version],
      );
    };
    await plant({ root: env.projectDir, run, bytes, offload });
    await db.end();
    const reader = await readerFor(factory, { ...env, edition: 'current' }, label);
    try {
      const r = await checkPgSchema(reader as PgSchemaReader, 'current', {
        root: withRoot ? env.projectDir : undefined,
      });
      return r.findings.map((f) => f.rule).sort();
    } finally {
      await reader.close();
      await factory.dispose?.(env);
    }
  } finally {
    env.cleanup();
  }
}

/** The version's bytes written to runs/{run}/attachments/n.bin of the root, that path offloaded. */
const offloadedAs =
  (change?: (b: Buffer) => Buffer): Plant =>
  async ({ root, run, bytes, offload }) => {
    mkdirSync(join(root, 'runs', run, 'attachments'), { recursive: true });
    writeFileSync(join(root, 'runs', run, 'attachments', 'n.bin'), change ? change(bytes) : bytes);
    await offload(`runs/${run}/attachments/n.bin`);
  };

onEachEngine(
  'verify postgres:env: an offloaded artifact under runs/{id}/attachments/ hashing to its version is clean',
  async (f, l) => {
    assert.equal(await rulesAfter(f, l, offloadedAs()), []);
  },
);

onEachEngine('verify postgres:env: an offloaded file whose bytes changed is wm.bin-hash', async (f, l) => {
  assert.equal(
    await rulesAfter(
      f,
      l,
      offloadedAs(() => Buffer.from('other')),
    ),
    ['wm.bin-hash'],
  );
});

onEachEngine('verify postgres:env: a missing offloaded file is wm.version-attachment', async (f, l) => {
  assert.equal(await rulesAfter(f, l, ({ run, offload }) => offload(`runs/${run}/attachments/n.bin`)), [
    'wm.version-attachment',
  ]);
});

onEachEngine(
  'verify postgres:env: a path outside runs/{id}/attachments/ is never read, even with the right bytes',
  async (f, l) => {
    for (const path of ['attachments/n.bin', '../n.bin', 'runs/x/attachments/n.bin', '/tmp/n.bin']) {
      const rules = await rulesAfter(f, l, async ({ root, bytes, offload }) => {
        mkdirSync(join(root, 'attachments'), { recursive: true });
        writeFileSync(join(root, 'attachments', 'n.bin'), bytes);
        writeFileSync(join(root, '..', 'n.bin'), bytes);
        await offload(path);
      });
      assert.equal(rules, ['wm.version-attachment'], path);
    }
  },
);

onEachEngine('verify postgres:URL (no tree): an offloaded version is not read, so nothing is claimed', async (f, l) => {
  assert.equal(await rulesAfter(f, l, ({ run, offload }) => offload(`runs/${run}/attachments/n.bin`), false), []);
});

test.run();
