import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import type { Backend } from '../../../src/core/backend.ts';
import { formatSegmentFile } from '../../../src/core/formats/segment-file.ts';
import { segmentFileName } from '../../../src/core/numbering.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// Issue 35: appendSegment keeps each agent directory's highest segment number (segment-numbers.ts, decision
// fs-segment-number-cache) instead of reading the directory per append. Here another process adds a segment
// between two appends of one long-lived instance, straight after the first, and the second must number past it.
// A plain file write of a higher number, as a VM following the seed writes one, is the case exclusive creation
// alone would not catch: with the stat check removed from SegmentNumbers.last, that scenario fails (numbers 3).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const AGENT = 'scribe';

type Env = ReturnType<typeof tempEnv>;

function runChild(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const agentDir = (env: Env, run: string) => join(env.projectDir, '.prose', 'runs', run, 'agents', AGENT);

const append = async (backend: Backend, run: string, prompt: string) =>
  (
    await backend.call(
      'appendSegment',
      { agent: AGENT, scope: 'execution', run, prompt, summary: 'ours' },
      { role: 'subagent', agent: AGENT },
    )
  ).number;

/** Each scenario: another process adds a segment after ours numbered 2; the number our next append must take. */
const SCENARIOS: Record<string, { change: (e: Env, run: string) => Promise<void>; next: number }> = {
  'another process of ours appends segment 3': {
    change: async (e, run) => {
      const r = await runChild(
        ['--import', 'tsx', join(FIXTURES, 'segment-writer.ts'), e.projectDir, e.homeDir, run].concat([
          AGENT,
          'theirs',
        ]),
      );
      assert.is(r.code, 0, r.stderr);
      assert.is(r.stdout.trim(), '3');
    },
    next: 4,
  },
  'another process writes segment 7 with a plain writeFileSync, as a VM following the seed may': {
    change: async (e, run) => {
      const file = join(agentDir(e, run), segmentFileName(AGENT, 7, e.decisions.segmentWidth));
      const text = formatSegmentFile(
        { number: 7, timestamp: '2026-12-05T13:00:00Z', prompt: 'theirs', summary: 'written by hand' },
        e.decisions.segmentWidth,
      );
      const script = 'require("node:fs").writeFileSync(process.argv[1], process.argv[2])';
      const r = await runChild(['-e', script, file, text]);
      assert.is(r.code, 0, r.stderr);
    },
    next: 8,
  },
};

for (const [name, s] of Object.entries(SCENARIOS)) {
  test(`a long-lived backend numbers past it: ${name}`, async () => {
    const env = tempEnv();
    const backend = await filesystemFactory.open(env);
    try {
      const { run } = await backend.call('createRun', { program: 'session "a"\n' }, { role: 'vm' });
      assert.is(await append(backend, run, 'one'), 1);
      assert.is(await append(backend, run, 'two'), 2);
      await s.change(env, run);
      assert.is(await append(backend, run, 'three'), s.next);
      const files = readdirSync(agentDir(env, run)).filter((f) => f.startsWith(`${AGENT}-`));
      assert.ok(files.includes(segmentFileName(AGENT, s.next, env.decisions.segmentWidth)), files.join(', '));
    } finally {
      await backend.close();
      env.cleanup();
    }
  });
}

test('appends without another writer number on from the cache: 1, 2, 3', async () => {
  const env = tempEnv();
  const backend = await filesystemFactory.open(env);
  try {
    const { run } = await backend.call('createRun', { program: 'session "a"\n' }, { role: 'vm' });
    const numbers = [];
    for (const p of ['a', 'b', 'c']) numbers.push(await append(backend, run, p));
    assert.equal(numbers, [1, 2, 3]);
  } finally {
    await backend.close();
    env.cleanup();
  }
});

test.run();
