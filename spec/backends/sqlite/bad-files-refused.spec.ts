import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { cli, tempEnv } from './helpers.ts';

/** Makes a run with some bindings, damages its state.db with `damage`, and checks every call is refused by code. */
async function refuses(
  label: string,
  damage: (bytes: Buffer, db: string) => Buffer,
  code: string,
  messagePart: RegExp,
) {
  const env = tempEnv(label);
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    for (let i = 0; i < 50; i++)
      await b.call('bind', { run, name: `n${i}`, kind: 'input', value: 'x'.repeat(300) }, VM);
    await b.close();
    const db = join(env.projectDir, '.prose', 'runs', run, 'state.db');
    const damaged = damage(readFileSync(db), db);
    writeFileSync(db, damaged);

    const again = await sqliteFactory.open(env);
    for (const attempt of [
      () => again.call('getRun', { run }, VM),
      () => again.call('bind', { run, name: 'new', kind: 'input', value: 'v' }, VM),
    ]) {
      try {
        await attempt();
        assert.unreachable(`${label}: the call should have been refused`);
      } catch (err) {
        assert.instance(err, ProseError);
        assert.is((err as ProseError).code, code, (err as Error).message);
        assert.match((err as Error).message, messagePart);
        assert.ok((err as ProseError).hint, 'says what to do');
      }
    }
    await again.close();
    assert.ok(readFileSync(db).equals(damaged), `${label}: the file was left untouched`);
  } finally {
    env.done();
  }
}

test('a file that is not SQLite is refused with E_CORRUPT and left untouched', () =>
  refuses(
    'not-db',
    () => Buffer.from('# state.md\n\nthis is a markdown file, not a database\n'.repeat(10)),
    'E_CORRUPT',
    /not a SQLite database/,
  ));

test('a truncated state.db is refused with E_CORRUPT', () =>
  // Cut into the database's own pages (the file also holds zeroed space reserved for growth past them).
  refuses(
    'truncated',
    (bytes) => bytes.subarray(0, (bytes.readUInt32BE(28) - 1) * bytes.readUInt16BE(16)),
    'E_CORRUPT',
    /truncated/,
  ));

test('a state.db with garbage in its pages is refused with E_CORRUPT', () =>
  refuses(
    'garbled',
    (bytes) => {
      const out = Buffer.from(bytes);
      for (let i = 4096; i < out.length; i += 7) out[i] = (out[i]! ^ 0x5a) & 0xff;
      return out;
    },
    'E_CORRUPT',
    /corrupt/,
  ));

test('a state.db of a newer schema version is refused with E_FORMAT', () =>
  refuses(
    'newer',
    (_bytes, db) => {
      // Let the real sqlite3 mark it, so the bytes are a valid database with user_version 2.
      const r = cli([db, 'PRAGMA user_version = 2']);
      assert.is(r.status, 0);
      return readFileSync(db);
    },
    'E_FORMAT',
    /schema version 2/,
  ));

test.run();
