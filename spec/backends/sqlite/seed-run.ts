import { join } from 'node:path';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import type { Backend, BackendEnv } from '../../../src/core/backend.ts';
import { agent, subagent } from './helpers.ts';

export interface SeedRun {
  backend: Backend;
  run: string;
  db: string;
  outer: number;
  inner: number;
}

/**
 * A run the backend writes the way a VM following sqlite.md would: statements, two nested frames (so frame
 * execution_ids 1 and 2 are not the execution table's row ids), scoped bindings, a parallel block, a loop, a retry,
 * an error and an execution-scope agent.
 */
export async function writeSeedRun(env: BackendEnv): Promise<SeedRun> {
  const b = await sqliteFactory.open(env);
  const { run } = await b.call('createRun', { program: 'let research = session: researcher' }, VM);
  const ev = (event: object) => b.call('recordEvent', { run, event: event as never }, VM);
  await ev({ type: 'statement', index: 1, text: 'let research = session: researcher', status: 'executing' });
  await b.call(
    'bind',
    {
      run,
      name: 'research',
      kind: 'let',
      value: 'AI safety research covers alignment',
      source: 'let research = session: researcher',
    },
    subagent('research'),
  );
  await ev({ type: 'statement', index: 1, text: 'let research = session: researcher', status: 'completed' });
  const outer = (await b.call('enterFrame', { run, block: 'process' }, VM)).executionId;
  const inner = (await b.call('enterFrame', { run, block: 'process', parent: outer }, VM)).executionId;
  await b.call('bind', { run, name: 'result', kind: 'let', value: 'root result' }, subagent('result'));
  await b.call(
    'bind',
    { run, name: 'result', kind: 'let', value: 'outer result', executionId: outer },
    subagent('result', outer),
  );
  await b.call('bind', { run, name: 'chunk', kind: 'input', value: 'outer chunk', executionId: outer }, VM);
  await ev({ type: 'parallel-start', id: 'p1', strategy: 'all', branches: ['a', 'b', 'c'] });
  await ev({ type: 'branch', id: 'p1', branch: 'a', status: 'executing' });
  await ev({ type: 'branch', id: 'p1', branch: 'b', status: 'executing' });
  await ev({ type: 'branch', id: 'p1', branch: 'a', status: 'completed' });
  await ev({ type: 'loop-start', id: 'l1', max: 5, condition: '**analysis complete**' });
  await ev({ type: 'loop-iteration', id: 'l1', iteration: 1 });
  await ev({ type: 'retry', index: 15, attempt: 1, max: 3, error: 'Connection timeout after 30s' });
  await ev({ type: 'error', index: 15, message: 'Connection timeout after 30s' });
  await ev({ type: 'statement', index: 3, text: 'session "Research AI safety"', status: 'executing' });
  await ev({ type: 'statement', index: 3, text: 'session "Research AI safety"', status: 'completed' });
  await b.call(
    'writeMemory',
    { agent: 'captain', scope: 'execution', run, memory: 'captain memory' },
    agent('captain'),
  );
  return { backend: b, run, db: join(env.projectDir, '.prose', 'runs', run, 'state.db'), outer, inner };
}
