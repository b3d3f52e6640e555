import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { captureIo } from './capture-io.ts';
import { copyValid, RUN_ID } from './fixture-copy.ts';

test('text output: one "file:line: severity rule: message" line and a hint per finding, a summary, exit 1 on an error', async () => {
  const c = copyValid();
  try {
    c.edit(`runs/${RUN_ID}/bindings/a.md`, 'kind: let', 'kind: var');
    c.edit(`runs/${RUN_ID}/agents/captain/memory.md`, '## Open Concerns', '## Worries');
    const io = captureIo(c.prose);
    const code = await verifyCommand.run(['.', '--home', c.home], io);
    assert.is(code, 1);
    const lines = io.out().trimEnd().split('\n');
    assert.is(
      lines[0],
      `runs/${RUN_ID}/bindings/a.md:3: error binding.kind: kind must be one of input, output, let, const, got "var"`,
    );
    assert.match(lines[1]!, /^ {2}hint: /);
    assert.match(
      io.out(),
      new RegExp(
        `runs/${RUN_ID}/agents/captain/memory.md: warning agent.memory-sections: memory.md has no "## Open Concerns" section\\n`,
      ),
    );
    assert.is(lines.at(-1), 'verify: 1 errors, 1 warnings in prose-dir .');
    assert.is(io.err(), '');
  } finally {
    c.cleanup();
  }
});

test('text output: warnings alone exit 0', async () => {
  const c = copyValid();
  try {
    c.edit(`runs/${RUN_ID}/state.md`, '# <-- EXECUTING', '# <-- RUNNING');
    const io = captureIo(c.run);
    assert.is(await verifyCommand.run(['.'], io), 0);
    assert.match(
      io.out(),
      /^state\.md:\d+: warning state-md\.trace-annotation: unknown status annotation "# <-- RUNNING"\n/,
    );
    assert.match(io.out(), /verify: 0 errors, 1 warnings in run-dir \.\n$/);
  } finally {
    c.cleanup();
  }
});

test.run();
