import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentRunVerifier } from '../../../src/verify/current-run/index.ts';
import { openCurrent } from './_current-run.ts';

const VM = { role: 'vm' } as const;

// Decision current-attached-root: an attached repository's <openprose-root> is repo/.agents/prose, given to the
// backend as its project directory; the repository around it is not written to.
test('given repo/.agents/prose as its root, the backend lays the current tree there and the run verifies clean', async () => {
  const base = mkdtempSync(join(tmpdir(), 'attached-root-'));
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(repo, 'src'), { recursive: true });
  mkdirSync(home);
  const root = join(repo, '.agents', 'prose');
  const b = await openCurrent(root, home, base);
  const { run } = await b.call('createRun', { program: '# p\n', programPath: 'src/p.prose.md' }, VM);
  await b.call('writeEnvelope', { run, compiledIntent: { nodes: ['n'] }, rootSource: '# p\n' }, VM);
  await b.call('commitWorldModel', { run, node: 'n', contract: 'n.prose.md', files: { 'out.md': '# out\n' } }, VM);
  await b.call(
    'writeMemory',
    { agent: 'keeper', scope: 'project', memory: 'm\n' },
    { role: 'subagent', agent: 'keeper' },
  );
  await b.call('setRunStatus', { run, status: 'completed' }, VM);
  await b.close();
  assert.ok(existsSync(join(root, 'runs', run, 'vm.log.md')));
  assert.ok(existsSync(join(root, 'state', 'world-model', 'n', 'receipts.jsonl')));
  assert.ok(existsSync(join(root, 'state', 'agents', 'keeper', 'memory.md')));
  assert.equal(readdirSync(repo).sort(), ['.agents', 'src'], 'nothing is written beside .agents/ in the repository');
  assert.equal(await currentRunVerifier.verify(root, { homeDir: home }), []);
});

test.run();
