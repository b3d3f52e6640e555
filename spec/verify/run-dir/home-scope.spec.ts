import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyValid } from './fixture-copy.ts';

test('user-scope agents are checked only with a home directory, and reported as ~/.prose/...', async () => {
  const c = copyValid();
  try {
    writeFileSync(join(c.home, '.prose/agents/mentor/memory.md'), '# Notes\n');
    assert.equal((await verifyPath(c.prose)).findings, [], 'without a home, ~ is not looked at');
    const { findings } = await verifyPath(c.prose, { homeDir: c.home });
    assert.equal(
      findings.map((f) => [f.rule, f.file]),
      [
        ['agent.memory-heading', '~/.prose/agents/mentor/memory.md'],
        ['agent.memory-sections', '~/.prose/agents/mentor/memory.md'],
        ['agent.memory-sections', '~/.prose/agents/mentor/memory.md'],
        ['agent.memory-sections', '~/.prose/agents/mentor/memory.md'],
      ],
    );
    assert.ok(findings.every((f) => f.severity === 'warning'));
  } finally {
    c.cleanup();
  }
});

test.run();
