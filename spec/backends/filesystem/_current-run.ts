import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';

const VM = { role: 'vm' } as const;

/** The nodes of the finished run and the outputs each declares (its world-model files). */
export const NODES = { researcher: ['findings', 'sources'], synthesizer: ['report'] } as const;

/**
 * A finished mounted run (with `callerInput`, one caller input first) written by the filesystem backend in the current edition: the envelope, one commit per
 * node (researcher twice, the second a skip), then completed. Returns `<openprose-root>` and the run directory.
 */
export async function writeFinishedRun(
  opts: { callerInput?: boolean } = {},
): Promise<{ root: string; home: string; runDir: string }> {
  const base = mkdtempSync(join(tmpdir(), 'fs-current-run-'));
  const root = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const env = {
    projectDir: root,
    homeDir: home,
    decisions: DEFAULT_DECISIONS,
    storageKey: base,
    edition: 'current' as const,
  };
  const b = await filesystemFactory.open(env);
  try {
    const { run } = await b.call('createRun', { program: '# research\n', programPath: 'research/deep-research' }, VM);
    await b.call(
      'writeEnvelope',
      {
        run,
        compiledIntent: { nodes: Object.keys(NODES) },
        rootSource: '# research\n',
        sources: { 'researcher.prose.md': '# r\n' },
      },
      VM,
    );
    // A caller input is a binding too (decision current-bindings), so it brings bindings/ with it.
    if (opts.callerInput) await b.call('bind', { run, name: 'question', kind: 'input', value: 'What changed?\n' }, VM);
    const files = (outputs: readonly string[]) =>
      Object.fromEntries(outputs.map((o) => [`${o}.md`, `# ${o}\n\nbody\n`]));
    for (const [node, outputs] of Object.entries(NODES))
      await b.call('commitWorldModel', { run, node, contract: `${node}.prose.md`, files: files(outputs) }, VM);
    await b.call(
      'commitWorldModel',
      { run, node: 'researcher', contract: 'researcher.prose.md', files: files(NODES.researcher) },
      VM,
    );
    await b.call('writeWorkspace', { run, node: 'researcher', files: { 'notes.md': 'scratch\n' } }, VM);
    await b.call('setRunStatus', { run, status: 'completed' }, VM);
    return { root, home, runDir: join(root, 'runs', run) };
  } finally {
    await b.close();
  }
}
