// Every engine reads stored TEXT byte for byte: node:sqlite decodes TEXT itself (a lone surrogate stored as WTF-8
// comes back as U+FFFD), so the native engine reads such cells again from their bytes (native-db.ts).
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeWtf8, execute, queryRows, SqliteFile } from '../../../src/sqlite/index.ts';
import { cli, enginesHere, tempEnv } from './helpers.ts';

const TEXTS = [
  'a\ud800b', // a lone high surrogate
  '\udc00', // a lone low surrogate, alone
  '\ufeffbom first', // a leading U+FEFF
  'nul\0inside',
  'real \ufffd replacement and \ud83d lone',
  '\ufffd',
  'plain 😀 pair',
];

for (const engine of enginesHere()) {
  test(`${engine}: TEXT with lone surrogates, U+FEFF, NUL and U+FFFD reads back exactly, in plain, ordered, CTE and duplicate-name queries`, async () => {
    const env = tempEnv(`text-${engine}`);
    try {
      const path = join(env.dir, 'state.db');
      const file = await SqliteFile.open(path, { engine });
      await file.write((db) => {
        execute(db, 'CREATE TABLE t (i INTEGER, v TEXT, b BLOB)');
        TEXTS.forEach((s, i) =>
          execute(db, 'INSERT INTO t VALUES (?, CAST(? AS TEXT), ?)', [i, encodeWtf8(s), Uint8Array.of(0xed, i)]),
        );
      });
      const plain = await file.read((db) => queryRows(db, 'SELECT i, v, b FROM t ORDER BY i DESC'));
      assert.equal(
        plain.map((r) => r.v),
        [...TEXTS].reverse(),
      );
      assert.equal(
        plain.map((r) => r.i),
        TEXTS.map((_, i) => TEXTS.length - 1 - i),
      );
      assert.ok(
        plain.every((r) => r.b instanceof Uint8Array && r.b[0] === 0xed),
        'blobs stay bytes',
      );
      const cte = await file.read((db) =>
        queryRows(db, 'WITH x AS (SELECT v, i FROM t WHERE i > ?) SELECT v FROM x ORDER BY i;', [0]),
      );
      assert.equal(
        cte.map((r) => r.v),
        TEXTS.slice(1),
      );
      // Two columns named v: the last one wins, as on every engine.
      const dup = await file.read((db) =>
        queryRows(db, 'SELECT a.v, b.v FROM t a JOIN t b ON b.i = a.i + 1 ORDER BY a.i'),
      );
      assert.equal(
        dup.map((r) => r.v),
        TEXTS.slice(1),
      );
      file.close();
      // The bytes on disk are WTF-8 (the CLI prints them as they are).
      assert.is(cli([path, 'SELECT hex(v) FROM t WHERE i = 0']).stdout, '61EDA08062\n');
    } finally {
      env.done();
    }
  });
}

test.run();
