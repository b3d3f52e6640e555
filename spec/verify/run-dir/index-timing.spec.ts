import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

test('a binding written after the VM last wrote state.md is a warning (index.unlisted), not an error', async () => {
  const env = tempEnv();
  try {
    const b = await filesystemFactory.open(env);
    const { run } = await b.call('createRun', { program: 'let x = session "x"\n' }, { role: 'vm' });
    await b.call(
      'bind',
      { run, name: 'x', kind: 'let', value: 'late', source: 'let x = session "x"' },
      { role: 'subagent', binding: 'x', executionId: null },
    );
    await b.close();
    const { findings } = await verifyPath(join(env.projectDir, '.prose/runs', run));
    assert.equal(
      findings.map((f) => [f.rule, f.severity, f.file]),
      [['index.unlisted', 'warning', 'bindings/x.md']],
    );
  } finally {
    env.cleanup();
  }
});

test.run();
