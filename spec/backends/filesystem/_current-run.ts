import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import type { ExecutionEvent } from '../../../src/core/model.ts';

const VM = { role: 'vm' } as const;

/** The filesystem backend in the current edition with `<openprose-root>` = `root`. */
export function openCurrent(root: string, home: string, storageKey: string) {
  return filesystemFactory.open({
    projectDir: root,
    homeDir: home,
    decisions: DEFAULT_DECISIONS,
    storageKey,
    edition: 'current',
  });
}

/** The nodes of the finished run and the outputs each declares (its world-model files). */
export const NODES = { researcher: ['findings', 'sources'], synthesizer: ['report'] } as const;

/**
 * A finished mounted run (with `callerInput`, one caller input first) written by the filesystem backend in the current edition: the envelope, one commit per
 * node (researcher twice, the second a skip), then completed. Returns `<openprose-root>` and the run directory.
 */
export async function writeFinishedRun(
  opts: { callerInput?: boolean; parallel?: boolean } = {},
): Promise<{ root: string; home: string; runDir: string }> {
  const base = mkdtempSync(join(tmpdir(), 'fs-current-run-'));
  const root = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const b = await openCurrent(root, home, base);
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
    // With `parallel`, the nodes render as the branches of one parallel group (∥start, Na→, ∥done).
    const group = (event: Record<string, unknown>) =>
      opts.parallel ? b.call('recordEvent', { run, event: { id: 'p1', ...event } as ExecutionEvent }, VM) : undefined;
    await group({ type: 'parallel-start', strategy: 'all', branches: Object.keys(NODES) });
    for (const [node, outputs] of Object.entries(NODES)) {
      await b.call('commitWorldModel', { run, node, contract: `${node}.prose.md`, files: files(outputs) }, VM);
      await group({ type: 'branch', branch: node, status: 'completed' });
    }
    await group({ type: 'parallel-join' });
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

/**
 * A finished standalone function run (prose.md "Single-Function Runs") written by the filesystem backend in the
 * current edition: the activation record as its envelope, a caller input, the output `echo`, then completed.
 */
export async function writeFunctionRun(): Promise<{ root: string; home: string; runDir: string }> {
  const base = mkdtempSync(join(tmpdir(), 'fs-function-run-'));
  const [root, home] = [join(base, 'project'), join(base, 'home')];
  mkdirSync(root);
  mkdirSync(home);
  const b = await openCurrent(root, home, base);
  try {
    const source = '---\nname: smoke-caller-input\nkind: function\n---\n';
    const { run } = await b.call('createRun', { program: source, programPath: 'smoke-caller-input' }, VM);
    const intent = { kind: 'function', name: 'smoke-caller-input' };
    await b.call('writeEnvelope', { run, compiledIntent: intent, rootSource: source }, VM);
    await b.call('bind', { run, name: 'topic', kind: 'input', value: 'caller input smoke fixture\n' }, VM);
    await b.call('writeWorkspace', { run, node: 'smoke-caller-input', files: { 'echo.md': 'draft\n' } }, VM);
    await b.call('bind', { run, name: 'echo', kind: 'output', value: 'caller-input-smoke-pass\n' }, VM);
    await b.call('setRunStatus', { run, status: 'completed' }, VM);
    return { root, home, runDir: join(root, 'runs', run) };
  } finally {
    await b.close();
  }
}
