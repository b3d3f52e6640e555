import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redact } from '../../../src/backends/postgres/index.ts';

const URL = 'postgresql://agent:s3cr%40t-pw@db.example:5432/prose?sslmode=require';

test('redact removes the URL, the password raw and decoded, and user:password pairs', () => {
  const text = `failed: ${URL}; pw s3cr%40t-pw or s3cr@t-pw; derived postgres://agent:s3cr%40t-pw@db.example:5432/prose_case_1`;
  const out = redact(text, URL);
  for (const secret of [URL, 's3cr%40t-pw', 's3cr@t-pw', 'agent:s3cr'])
    assert.not.ok(out.includes(secret), `${secret} removed: ${out}`);
  assert.ok(out.startsWith('failed: [redacted]'), out);
});

test('redact leaves text without secrets alone, and hides credentials of any postgres URL', () => {
  assert.is(redact('connection refused', URL), 'connection refused');
  assert.is(
    redact('see postgresql://u:p@h/d', undefined),
    'see postgresql://u:p@h/d',
    'no URL given: nothing to remove',
  );
  assert.is(redact('see postgresql://u:p@h/d', URL), 'see postgresql://[redacted]@h/d');
});

test.run();
