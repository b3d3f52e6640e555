import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instructionsCommand } from '../../src/cli/commands/instructions.ts';
import { sqliteProgram } from '../../src/session/index.ts';
import { openBackend } from './helpers/backends.ts';
import { VM } from '../../src/core/actor.ts';

function io(cwd: string) {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: {
        write: (s: string | Uint8Array) => {
          out += String(s);
        },
      },
      stderr: {
        write: (s: string) => {
          err += s;
        },
      },
      env: {},
      cwd,
    },
    out: () => out,
    err: () => err,
  };
}

test('sqlite3 on PATH is used; without it the instructions call prose-state sqlite3; both can be forced', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-session-path-'));
  mkdirSync(join(dir, 'with'));
  writeFileSync(join(dir, 'with', 'sqlite3'), '#!/bin/sh\n');
  chmodSync(join(dir, 'with', 'sqlite3'), 0o755);
  assert.is(sqliteProgram('auto', { PATH: join(dir, 'with') }), 'sqlite3');
  assert.is(sqliteProgram('auto', { PATH: join(dir, 'without') }), 'prose-state sqlite3');
  assert.is(sqliteProgram('prose-state', { PATH: join(dir, 'with') }), 'prose-state sqlite3');
  assert.is(sqliteProgram('sqlite3', {}), 'sqlite3');
});

test('usage errors exit 2 and name the option', async () => {
  const c = io(tmpdir());
  assert.is(await instructionsCommand.run(['--backend', 'mongo', '--run', 'x', '--binding', 'a'], c.io), 2);
  assert.match(c.err(), /--backend/);
  const d = io(tmpdir());
  assert.is(
    await instructionsCommand.run(['--backend', 'filesystem', '--run', 'x', '--binding', 'a', '--bogus'], d.io),
    2,
  );
  assert.match(d.err(), /bogus/);
});

test('filesystem: the segment handed out is one past the newest; the VM values are in the file format', async () => {
  const o = await openBackend('filesystem');
  const { run } = await o.backend.call('createRun', { program: 'x' }, VM);
  await o.backend.call(
    'appendSegment',
    { agent: 'captain', scope: 'execution', run, prompt: 'p', summary: 's' },
    { role: 'subagent', agent: 'captain' },
  );
  const c = io(o.projectDir);
  assert.is(
    await instructionsCommand.run(
      [
        '--backend',
        'filesystem',
        '--run',
        run,
        '--binding',
        'plan',
        '--kind',
        'const',
        '--agent',
        'captain',
        '--scope',
        'execution',
      ],
      c.io,
    ),
    0,
  );
  assert.match(c.out(), new RegExp(`\\.prose/runs/${run}/agents/captain/captain-002\\.md`));
  assert.match(c.out(), /^kind: const$/m);
  assert.match(c.out(), /^Segment: captain-002\.md$/m);
  await o.backend.close();
});

test('postgres: the URL stays in the environment; agents need --segment', async () => {
  const c = io(tmpdir());
  assert.is(
    await instructionsCommand.run(
      ['--backend', 'postgres', '--run', '20260116-143052-a7b3c9', '--binding', 'research'],
      { ...c.io, env: { OPENPROSE_POSTGRES_URL: 'postgres://u:secret@h/db' } },
    ),
    0,
  );
  assert.match(c.out(), /psql "\$OPENPROSE_POSTGRES_URL"/);
  assert.not.match(c.out(), /secret/);
  const d = io(tmpdir());
  assert.is(
    await instructionsCommand.run(
      ['--backend', 'postgres', '--run', '20260116-143052-a7b3c9', '--agent', 'captain', '--scope', 'execution'],
      d.io,
    ),
    2,
  );
});

test.run();
