import { readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { tempEnv } from './helpers.ts';

test('run references that try to leave .prose/runs/ are refused and create nothing', async () => {
  const env = tempEnv('refs');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    const bad = [
      '..',
      '../..',
      `${run}/../../../x`,
      `${run}/imports/..--x`,
      `${run}/imports/a--b/../../..`,
      `${run}/attachments/a--b`,
      '/etc/passwd',
      `${run}/imports/--x`,
    ];
    for (const ref of bad) {
      for (const call of [
        () => b.call('getRun', { run: ref }, VM),
        () => b.call('bind', { run: ref, name: 'x', kind: 'input', value: 'v' }, VM),
        () => b.call('createImport', { run: ref, handle: 'h', slug: 's', program: 'p' }, VM),
      ]) {
        try {
          await call();
          assert.unreachable(`${ref} should be refused`);
        } catch (err) {
          assert.instance(err, ProseError, String(err));
          assert.ok(
            ['E_NOT_FOUND', 'E_INVALID_NAME'].includes((err as ProseError).code),
            `${ref}: ${(err as ProseError).code}`,
          );
        }
      }
    }
    await b.close();
    assert.ok(
      readdirSync(env.dir).every((d) => d === 'project' || d === 'home'),
      'nothing beside the project and home',
    );
    assert.equal(readdirSync(env.projectDir), ['.prose']);
    assert.equal(readdirSync(`${env.projectDir}/.prose/runs`), [run]);
  } finally {
    env.done();
  }
});

test.run();
