import { randomUUID } from 'node:crypto';
import { VM, type Actor } from '../../../src/core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { createInContextFactory, type InContextOptions } from '../../../src/backends/in-context/index.ts';

/** A fresh factory (its own conversations) and an env of its own: specs share nothing. */
export function freshFactory(opts: InContextOptions = {}): { factory: BackendFactory; env: BackendEnv } {
  const key = randomUUID();
  return {
    factory: createInContextFactory(opts),
    env: {
      projectDir: `/nonexistent/${key}`,
      homeDir: `/nonexistent/${key}-home`,
      decisions: DEFAULT_DECISIONS,
      storageKey: key,
    },
  };
}

export const sub = (binding: string, executionId: number | null = null): Actor => ({
  role: 'subagent',
  binding,
  executionId,
});
export const agent = (name: string): Actor => ({ role: 'subagent', agent: name });

/** A run touching every operation the backend supports; it ends with every frame exited and the run completed. */
export async function runScript(b: Backend): Promise<string> {
  const { run } = await b.call(
    'createRun',
    { runId: '20260115-143052-a7b3c9', program: 'let research = session "x"\n---\n', programPath: 'demo.prose' },
    VM,
  );
  await b.call('bind', { run, name: 'topic', kind: 'input', value: 'quantum "computing"' }, VM);
  await b.call(
    'recordEvent',
    { run, event: { type: 'statement', index: 1, text: 'let research = session: researcher', status: 'executing' } },
    VM,
  );
  await b.call(
    'bind',
    {
      run,
      name: 'research',
      kind: 'let',
      value: 'line one\n---\nline three',
      source: 'let research = session: researcher',
    },
    sub('research'),
  );
  await b.call(
    'recordEvent',
    { run, event: { type: 'statement', index: 1, text: 'let research = session: researcher', status: 'completed' } },
    VM,
  );
  const f1 = await b.call('enterFrame', { run, block: 'process', args: { chunk: 'data', depth: '5' } }, VM);
  const f2 = await b.call('enterFrame', { run, block: 'process', parent: f1.executionId }, VM);
  await b.call(
    'bind',
    { run, name: 'parts', kind: 'const', value: '[1, 2]', executionId: f2.executionId },
    sub('parts', f2.executionId),
  );
  await b.call('bind', { run, name: 'summary', kind: 'output', value: 'said while frames are open' }, sub('summary'));
  await b.call('exitFrame', { run, executionId: f2.executionId }, VM);
  await b.call('exitFrame', { run, executionId: f1.executionId, status: 'failed' }, VM);
  await b.call(
    'recordEvent',
    { run, event: { type: 'parallel-start', id: 'p1', strategy: 'all', branches: ['a', 'b'] } },
    VM,
  );
  await b.call('recordEvent', { run, event: { type: 'branch', id: 'p1', branch: 'a', status: 'completed' } }, VM);
  await b.call('recordEvent', { run, event: { type: 'branch', id: 'p1', branch: 'b', status: 'completed' } }, VM);
  await b.call('recordEvent', { run, event: { type: 'parallel-join', id: 'p1' } }, VM);
  await b.call(
    'recordEvent',
    { run, event: { type: 'loop-start', id: 'l1', max: 3, condition: 'analysis complete' } },
    VM,
  );
  await b.call('recordEvent', { run, event: { type: 'loop-iteration', id: 'l1', iteration: 1 } }, VM);
  await b.call('recordEvent', { run, event: { type: 'loop-iteration', id: 'l1', iteration: 2 } }, VM);
  await b.call('recordEvent', { run, event: { type: 'loop-exit', id: 'l1', reason: 'condition' } }, VM);
  await b.call('recordEvent', { run, event: { type: 'retry', index: 4, attempt: 1, max: 2, error: 'timeout' } }, VM);
  await b.call('recordEvent', { run, event: { type: 'error', index: 4, message: 'gave up' } }, VM);
  await b.call('allocateAnon', { run }, VM);
  await b.call(
    'writeMemory',
    { agent: 'captain', scope: 'execution', run, memory: '# Agent Memory: captain\n' },
    agent('captain'),
  );
  await b.call(
    'appendSegment',
    {
      agent: 'captain',
      scope: 'execution',
      run,
      prompt: 'review',
      summary: 'Found: 2',
      timestamp: '2026-01-15T14:31:00Z',
    },
    agent('captain'),
  );
  await b.call(
    'writeEnvelope',
    { run, compiledIntent: { nodes: ['report'] }, rootSource: '# root\n', sources: { 'a/b.md': 'x\n---\n' } },
    VM,
  );
  const v1 = await b.call(
    'commitWorldModel',
    { run, node: 'report', contract: 'c', files: { 'truth.json': '{"a":1}', 'notes/é.md': 'line\n' } },
    VM,
  );
  await b.call(
    'commitWorldModel',
    { run, node: 'report', contract: 'c', files: { 'truth.json': '{"a":1}', 'notes/é.md': 'line\n' } },
    VM,
  );
  await b.call('commitWorldModel', { run, node: 'report', contract: 'c', files: { 'truth.json': '{"a":2}' } }, VM);
  await b.call('failRender', { run, node: 'other', contract: 'c', reason: 'no input' }, VM);
  await b.call('writeWorkspace', { run, node: 'report', files: { 'scratch.txt': 'tmp' } }, VM);
  if (v1.version === null) throw new Error('the first commit renders');
  await b.call('setRunStatus', { run, status: 'completed' }, VM);
  return run;
}

/** Everything a run answers, for comparing two backends or a backend before and after a restart. */
export async function snapshot(b: Backend, run: string) {
  return {
    run: await b.call('getRun', { run }, VM),
    resume: await b.call('resume', { run }, VM),
    bindings: await Promise.all(
      (await b.call('listBindings', { run }, VM)).bindings.map((x) =>
        b.call('resolve', { run, name: x.name, executionId: x.executionId }, VM),
      ),
    ),
    memory: await b.call('readMemory', { agent: 'captain', scope: 'execution', run }, VM),
    segments: await b.call('listSegments', { agent: 'captain', scope: 'execution', run }, VM),
    envelope: await b.call('readEnvelope', { run }, VM),
    published: await b.call('readPublished', { run, node: 'report' }, VM),
    receipts: await b.call('listReceipts', { run }, VM),
  };
}

/** The transcript a backend narrated (its storage view). */
export async function transcriptOf(b: Backend): Promise<string> {
  const view = b.storage?.();
  if (view?.kind !== 'transcript') throw new Error('not a transcript backend');
  return view.text();
}
