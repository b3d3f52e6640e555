// On Windows the scripted subagent refuses the sqlite instructions' commands (POSIX sh lines, no /bin/sh there:
// decisions platform-subagent-shell) before it runs any, and nothing is stored; the other storages need no shell.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { ProseError } from '../../src/core/errors.ts';
import { instructionsText } from '../../src/cli/commands/instructions.ts';
import { followInstructions } from '../../src/session/index.ts';
import { openBackend, type Kind } from './helpers/backends.ts';

async function follow(kind: Kind, platform: NodeJS.Platform) {
  const o = await openBackend(kind);
  try {
    const { run } = await o.backend.call('createRun', { program: 'let research = session: researcher\n' }, VM);
    const argv = ['--backend', kind, '--run', run, '--project', o.projectDir, '--home', o.homeDir];
    argv.push('--binding', 'research', '--source', 'let research = session "Research it"');
    if (kind === 'sqlite') argv.push('--sqlite3', 'sqlite3'); // the real one (installed here), not our shim
    const text = await instructionsText(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: {},
      cwd: o.projectDir,
    });
    const work = { value: 'the findings\r\nwith a CRLF\n', summary: 'findings' };
    const outcome = await followInstructions(text, work, {
      storage: o.storage,
      projectDir: o.projectDir,
      homeDir: o.homeDir,
      env: { ...process.env, NODE_OPTIONS: '' },
      platform,
    }).then(
      (message) => ({ message }),
      (err: unknown) => ({ err }),
    );
    const stored = await o.backend.call('resolve', { run, name: 'research' }, VM).then(
      (b) => b.value,
      () => undefined,
    );
    return { outcome, stored };
  } finally {
    await o.backend.close();
  }
}

test('sqlite on win32: E_UNSUPPORTED naming the missing /bin/sh, and no binding written', async () => {
  const { outcome, stored } = await follow('sqlite', 'win32');
  assert.ok('err' in outcome, 'the commands must not run');
  assert.instance(outcome.err, ProseError);
  assert.is((outcome.err as ProseError).code, 'E_UNSUPPORTED');
  assert.match((outcome.err as ProseError).message, /\/bin\/sh/);
  assert.is(stored, undefined);
});

test('filesystem on win32: the files-only instructions are followed (no shell), CRLF kept byte for byte', async () => {
  const { outcome, stored } = await follow('filesystem', 'win32');
  assert.ok('message' in outcome, String('err' in outcome && outcome.err));
  assert.is(stored, 'the findings\r\nwith a CRLF\n');
});

test('sqlite on linux: the same instructions run through /bin/sh and store the value', async () => {
  const { outcome, stored } = await follow('sqlite', 'linux');
  assert.ok('message' in outcome, String('err' in outcome && outcome.err));
  assert.is(stored, 'the findings\r\nwith a CRLF\n');
});

test.run();
