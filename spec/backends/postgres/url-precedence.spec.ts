import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolvePostgresUrl } from '../../../src/backends/postgres/index.ts';
import { tempEnv } from './helpers.ts';

const FILE = 'postgresql://file@h/db';
const SHELL = 'postgresql://shell@h/db';
const DB = 'postgresql://database@h/db';

test('URL precedence: .prose/.env, then shell OPENPROSE_POSTGRES_URL, then DATABASE_URL', () => {
  const env = tempEnv();
  try {
    const dir = env.projectDir;
    assert.is(resolvePostgresUrl(dir, {}), undefined, 'nothing set');
    assert.equal(resolvePostgresUrl(dir, { DATABASE_URL: DB }), { url: DB, source: 'shell DATABASE_URL' });
    assert.equal(resolvePostgresUrl(dir, { DATABASE_URL: DB, OPENPROSE_POSTGRES_URL: SHELL }), {
      url: SHELL,
      source: 'shell OPENPROSE_POSTGRES_URL',
    });
    assert.equal(
      resolvePostgresUrl(dir, { OPENPROSE_POSTGRES_URL: '', DATABASE_URL: DB })?.url,
      DB,
      'an empty value counts as unset',
    );
    mkdirSync(join(dir, '.prose'), { recursive: true });
    writeFileSync(join(dir, '.prose', '.env'), `# comment\nOTHER=1\nexport OPENPROSE_POSTGRES_URL="${FILE}"\n`);
    assert.equal(resolvePostgresUrl(dir, { DATABASE_URL: DB, OPENPROSE_POSTGRES_URL: SHELL }), {
      url: FILE,
      source: '.prose/.env OPENPROSE_POSTGRES_URL',
    });
    writeFileSync(join(dir, '.prose', '.env'), `OTHER=1\n`);
    assert.is(
      resolvePostgresUrl(dir, { OPENPROSE_POSTGRES_URL: SHELL })?.url,
      SHELL,
      'a .env without the key falls through',
    );
    writeFileSync(join(dir, '.prose', '.env'), `this is not a pair ${FILE}\n`);
    const err = (() => {
      try {
        resolvePostgresUrl(dir, {});
      } catch (e) {
        return e as Error & { code: string };
      }
      return undefined;
    })();
    assert.is(err?.code, 'E_USAGE');
    assert.not.ok(err!.message.includes(FILE), 'the bad line is named by number, its text is not echoed');
  } finally {
    env.cleanup();
  }
});

test.run();
