import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redactCommand } from '../../src/plugin/redact-command.ts';

test('secret-looking variables and URL passwords are masked; the rest of the command stays readable', () => {
  assert.is(
    redactCommand('API_TOKEN=abc123 DB_PASSWORD="p w" MODE=fast node plugin.js'),
    'API_TOKEN=*** DB_PASSWORD=*** MODE=fast node plugin.js',
  );
  assert.is(
    redactCommand('node p.js --db postgres://me:hunter2@localhost/x'),
    'node p.js --db postgres://me:***@localhost/x',
  );
  assert.is(
    redactCommand('node conformance/plugins/reference/index.js'),
    'node conformance/plugins/reference/index.js',
  );
});

test.run();
