import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { buildProtocolSchema } from '../../src/plugin/protocol-schema.ts';
import { EDITION_NAMES } from '../../src/core/editions.ts';
import { tempEnv } from './fixtures/temp-env.ts';

const echo = JSON.stringify(fileURLToPath(new URL('./fixtures/edition-echo-plugin.js', import.meta.url)));
const command = (file: string, caps: string) =>
  `ECHO_FILE=${JSON.stringify(file)} ECHO_CAPS=${caps} exec ${JSON.stringify(process.execPath)} ${echo}`;

test('open tells an exec plugin the edition of the storage it opens (absent from the caller: v0)', async () => {
  const env = tempEnv('edition-echo');
  const file = join(env.storageKey, 'opens.jsonl');
  try {
    const f = await execFactory(command(file, 'edition:v0,edition:current'));
    await (await f.open({ ...env, edition: 'current' })).close();
    const { cleanup: _c, ...plain } = env;
    await (await f.open(plain)).close();
    const opens = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { edition: string; projectDir: string });
    assert.equal(
      opens.map((o) => [o.edition, o.projectDir]),
      [
        ['current', env.projectDir],
        ['v0', env.projectDir],
      ],
    );
  } finally {
    env.cleanup();
  }
});

test('the protocol schema lists the edition among what open sends, one of the editions', () => {
  const schema = JSON.stringify(buildProtocolSchema());
  assert.ok(schema.includes('"edition":{"enum":' + JSON.stringify(EDITION_NAMES)), 'env.edition in the schema');
  assert.ok(schema.includes('"required":["projectDir","homeDir","storageKey","edition","decisions"]'));
});

test.run();
