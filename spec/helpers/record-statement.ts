import type { Backend, BackendFactory } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';

/**
 * What a cache spec's child process does (argv: projectDir homeDir run index status): open `factory` as another
 * process of ours would, record one statement event (text `step {index}`), close, and print `done`.
 */
export async function recordStatementFromArgv(factory: BackendFactory, argv: string[]): Promise<void> {
  const [projectDir, homeDir, run, index, status] = argv;
  const backend = await openAsAnotherProcess(factory, projectDir!, homeDir!);
  const event = {
    type: 'statement' as const,
    index: Number(index),
    text: `step ${index}`,
    status: status as 'executing',
  };
  await backend.call('recordEvent', { run: run!, event }, { role: 'vm' });
  await backend.close();
  process.stdout.write('done\n');
}

/** `factory` opened on the project and home a spec handed this child process, as another process of ours would. */
export function openAsAnotherProcess(factory: BackendFactory, projectDir: string, homeDir: string): Promise<Backend> {
  return factory.open({ projectDir, homeDir, decisions: DEFAULT_DECISIONS, storageKey: projectDir });
}
