import type { Backend } from '../../../src/core/backend.ts';

const VM = { role: 'vm' } as const;
const sub = (binding: string, executionId: number | null = null) =>
  ({ role: 'subagent', binding, executionId }) as const;
const agent = (name: string) => ({ role: 'subagent', agent: name }) as const;

export const SEED_MEMORY = (name: string) => `# Agent Memory: ${name}

## Current Understanding

The project is implementing a REST API for user management.

## Decisions Made

- 2026-01-15: Approved JWT over session tokens (simpler stateless auth)

## Open Concerns

- Rate limiting not yet implemented on login endpoint
`;

/**
 * Drives a backend through everything verify checks: a run with statements, retries, a loop and a parallel block,
 * nested frames with scoped bindings, anonymous bindings, a value over `bigBytes` (attached), agents in execution,
 * project and user scope with segments, and an import with bindings of its own. The VM writes last, so the Index is
 * current. Returns the run reference.
 */
export async function driveScenario(b: Backend, bigBytes: number): Promise<{ run: string; imported: string }> {
  const { run } = await b.call(
    'createRun',
    { program: 'let research = session "Research"\n', programPath: 'demo.prose' },
    VM,
  );
  await b.call(
    'recordEvent',
    { run, event: { type: 'statement', index: 1, text: 'let research = session "Research"', status: 'executing' } },
    VM,
  );
  await b.call('bind', { run, name: 'topic', kind: 'input', value: 'AI safety' }, VM);
  await b.call(
    'bind',
    {
      run,
      name: 'research',
      kind: 'let',
      value: 'AI safety research covers alignment...',
      source: 'let research = session "Research"',
    },
    sub('research'),
  );
  await b.call(
    'recordEvent',
    { run, event: { type: 'statement', index: 1, text: 'let research = session "Research"', status: 'completed' } },
    VM,
  );
  await b.call('recordEvent', { run, event: { type: 'retry', index: 2, attempt: 1, max: 3, error: 'timeout' } }, VM);
  await b.call(
    'recordEvent',
    { run, event: { type: 'statement', index: 2, text: 'session "Analyze"', status: 'executing' } },
    VM,
  );
  for (let i = 0; i < 2; i++) {
    const { name } = await b.call('allocateAnon', { run }, VM);
    await b.call(
      'bind',
      { run, name, kind: 'let', value: `anonymous result ${i}`, source: 'session "Analyze"' },
      sub(name),
    );
  }
  await b.call(
    'recordEvent',
    { run, event: { type: 'parallel-start', id: 'p1', strategy: 'all', branches: ['a', 'b'] } },
    VM,
  );
  await b.call('recordEvent', { run, event: { type: 'branch', id: 'p1', branch: 'a', status: 'completed' } }, VM);
  await b.call('recordEvent', { run, event: { type: 'loop-start', id: 'l1', max: 3, condition: '**done**' } }, VM);
  await b.call('recordEvent', { run, event: { type: 'loop-iteration', id: 'l1', iteration: 1 } }, VM);
  const f1 = await b.call('enterFrame', { run, block: 'process', args: { chunk: 'all' } }, VM);
  const f2 = await b.call('enterFrame', { run, block: 'process', parent: f1.executionId }, VM);
  const f3 = await b.call('enterFrame', { run, block: 'process', parent: f2.executionId }, VM);
  await b.call('exitFrame', { run, executionId: f3.executionId }, VM);
  for (const f of [f1, f2]) {
    await b.call(
      'bind',
      {
        run,
        name: 'result',
        kind: 'let',
        value: `chunk at depth ${f.depth}`,
        executionId: f.executionId,
        source: 'let result = session "Process chunk"',
      },
      sub('result', f.executionId),
    );
  }
  await b.call(
    'bind',
    {
      run,
      name: 'report',
      kind: 'output',
      value: 'x'.repeat(bigBytes + 1),
      executionId: f2.executionId,
      source: 'output report = session "Report"',
    },
    sub('report', f2.executionId),
  );
  await b.call(
    'bind',
    { run, name: 'big', kind: 'const', value: 'é'.repeat(bigBytes), source: 'const big = session "Big"' },
    sub('big'),
  );

  await b.call(
    'writeMemory',
    { agent: 'captain', scope: 'execution', run, memory: SEED_MEMORY('captain') },
    agent('captain'),
  );
  for (const p of ['Review the research findings', 'Review the synthesis']) {
    await b.call(
      'appendSegment',
      { agent: 'captain', scope: 'execution', run, prompt: p, summary: '- Reviewed: research\n- Next: synthesis\n' },
      agent('captain'),
    );
  }
  await b.call(
    'writeMemory',
    { agent: 'reviewer', scope: 'project', memory: SEED_MEMORY('reviewer') },
    agent('reviewer'),
  );
  await b.call(
    'appendSegment',
    { agent: 'reviewer', scope: 'project', prompt: 'Review "quoted"\nand multi-line', summary: '- Found: gaps' },
    agent('reviewer'),
  );
  await b.call('writeMemory', { agent: 'mentor', scope: 'user', memory: SEED_MEMORY('mentor') }, agent('mentor'));
  await b.call(
    'appendSegment',
    {
      agent: 'mentor',
      scope: 'user',
      prompt: 'Coach',
      summary: '- Decided: explain scopes',
      timestamp: '2026-01-10T08:00:00Z',
    },
    agent('mentor'),
  );

  const { run: imported } = await b.call(
    'createImport',
    { run, handle: 'alice', slug: 'summarizer', program: 'output summary = session "Summarize"\n' },
    VM,
  );
  await b.call('bind', { run: imported, name: 'text', kind: 'input', value: 'the text' }, VM);
  const { name } = await b.call('allocateAnon', { run: imported }, VM);
  await b.call(
    'bind',
    { run: imported, name, kind: 'let', value: 'anonymous in import', source: 'session "Skim"' },
    sub(name),
  );
  await b.call(
    'bind',
    { run: imported, name: 'summary', kind: 'output', value: 'short', source: 'output summary = session "Summarize"' },
    sub('summary'),
  );
  await b.call('setRunStatus', { run: imported, status: 'completed' }, VM);
  // The VM writes last, so state.md's Index lists every binding (decisions state-md-index-timing).
  await b.call('setRunStatus', { run, status: 'interrupted' }, VM);
  return { run, imported };
}
