import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqlite3Route } from '../../../src/cli/sqlite3-route.ts';

test('a binary invoked through a link named sqlite3 routes its arguments to the sqlite3 command', () => {
  for (const argv0 of [
    'sqlite3',
    '/usr/local/bin/sqlite3',
    './sqlite3',
    'C:\\tools\\sqlite3.exe'.replaceAll('\\', '/'),
  ]) {
    assert.equal(
      sqlite3Route(argv0, ['-json', 'state.db', 'SELECT 1']),
      ['sqlite3', '-json', 'state.db', 'SELECT 1'],
      argv0,
    );
  }
  for (const argv0 of ['prose-state', '/usr/bin/node', 'sqlite3x', 'my-sqlite3'])
    assert.is(sqlite3Route(argv0, ['x']), undefined, argv0);
});

test.run();
