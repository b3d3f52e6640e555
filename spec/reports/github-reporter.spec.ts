import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.ts';
import { captureIo, PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

const suiteDir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });

test('--reporter github writes one ::error line per failure, at the failing step of the case file', async () => {
  const c = captureIo();
  const code = await main(
    // v0 alone: one failure per backend is counted, and filesystem also declares the current edition (a second run).
    [
      'test',
      '--backend',
      'filesystem',
      '--backend',
      'in-context',
      '--edition',
      'v0',
      '--suite',
      suiteDir,
      '--reporter',
      'github',
    ],
    c.io,
  );
  assert.is(code, 1);
  const errors = c
    .out()
    .split('\n')
    .filter((l) => l.startsWith('::'));
  assert.is(errors.length, 2);
  // a/fails's step is on line 12 of the case file; ':' and ',' inside a property are escaped.
  assert.match(
    errors[0]!,
    /^::error file=[^,]*cases\/a\.yaml,line=12,title=filesystem a\/fails::resolve .*%0Aexpected "success"%0Aseen \{"code":"E_NOT_FOUND"/,
  );
  assert.match(errors[1]!, /title=in-context a\/fails::/);
  assert.match(c.out(), /^conformance: 2 passed, 2 failed, 2 skipped$/m);
});

test.run();
