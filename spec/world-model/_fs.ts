import { join } from 'node:path';
import { VM } from '../../src/core/actor.ts';
import type { Backend } from '../../src/core/backend.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { tempEnv } from '../helpers/temp-env.ts';

/** A filesystem backend on a fresh temp project with one run; `runDir` is its `.prose/runs/{id}/`. */
export async function fsRun(runId = '20260317-143052-a7b3c9') {
  const env = tempEnv();
  const backend: Backend = await filesystemFactory.open(env);
  const { run } = await backend.call('createRun', { runId, program: 'p\n' }, VM);
  const call = <T = Record<string, unknown>>(
    op: Parameters<Backend['call']>[0],
    args: Record<string, unknown>,
  ): Promise<T> => backend.call(op, { run, ...args } as never, VM) as Promise<T>;
  return {
    env,
    backend,
    run,
    call,
    runDir: join(env.projectDir, '.prose', 'runs', run),
    cleanup: async () => {
      await backend.close();
      env.cleanup();
    },
  };
}
