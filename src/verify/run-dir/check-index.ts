import { join } from 'node:path';
import { AGENT_SCOPES, BINDING_KINDS } from '../../core/model.ts';
import { isFileInTree, isKind } from '../kit/owned-files.ts';
import type { BindingOnDisk } from './check-bindings.ts';
import type { StateMdFacts } from './check-state-md.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import type { RunDirRuleId } from './rules.ts';

type Sink = FindingSink<RunDirRuleId>;
const FILE = 'state.md';

export interface IndexContext {
  runDir: string;
  bindings: BindingOnDisk[];
  /** Agent directories under the run's agents/. */
  agents: string[];
  /** The project directory (parent of .prose/) when the run sits in .prose/runs/, for project-scope rows. */
  projectDir?: string;
  homeDir?: string;
}

/**
 * Holds the Index (and the trace's `# --> bindings/x.md`) to what is on disk: every path it names exists with the
 * kind and execution id it claims; every binding on disk is listed (a warning: decisions state-md-index-timing).
 */
export function checkIndex(facts: StateMdFacts, ctx: IndexContext, sink: Sink): void {
  const byFile = new Map(ctx.bindings.map((b) => [b.file, b]));
  const listed = new Set<string>();
  for (const row of facts.bindingRows ?? []) {
    const bad = (why: string) => sink.add('index.mismatch', why, { file: FILE, line: row.line });
    const id = row.executionId;
    if (id !== '(root)' && !/^[1-9]\d*$/.test(id)) {
      bad(`Execution ID ${JSON.stringify(id)} of ${row.name} is neither (root) nor a positive integer`);
      continue;
    }
    const expect = id === '(root)' ? `bindings/${row.name}.md` : `bindings/${row.name}__${id}.md`;
    if (row.path !== expect) bad(`the Path of ${row.name} (execution id ${id}) is ${row.path}, expected ${expect}`);
    if (!(BINDING_KINDS as readonly string[]).includes(row.kind))
      bad(`Kind ${JSON.stringify(row.kind)} of ${row.name} is not input, output, let or const`);
    if (listed.has(row.path)) bad(`${row.path} is listed twice`);
    listed.add(row.path);
    const onDisk = byFile.get(row.path);
    if (!onDisk) {
      if (!isFileInTree(ctx.runDir, row.path))
        sink.add('index.path-missing', `the Index names ${row.path}, which does not exist`, {
          file: FILE,
          line: row.line,
        });
      continue;
    }
    const p = onDisk.parsed;
    if (p && p.kind !== row.kind && (BINDING_KINDS as readonly string[]).includes(row.kind))
      bad(`the Index says ${row.name} is ${row.kind}, the file says ${p.kind}`);
  }
  for (const b of facts.bindingRows ? ctx.bindings : []) {
    if (!listed.has(b.file)) sink.add('index.unlisted', `${b.file} is not in the Index`, { file: b.file });
  }
  for (const ref of facts.traceRefs) {
    if (!byFile.has(ref.path) && !isFileInTree(ctx.runDir, ref.path)) {
      sink.add('state-md.trace-binding', `the trace says output was written to ${ref.path}, which does not exist`, {
        file: FILE,
        line: ref.line,
      });
    }
  }
  checkAgentRows(facts, ctx, sink);
}

function checkAgentRows(facts: StateMdFacts, ctx: IndexContext, sink: Sink): void {
  const listed = new Set<string>();
  for (const row of facts.agentRows ?? []) {
    const bad = (why: string) => sink.add('index.agent', why, { file: FILE, line: row.line });
    const path = row.path.endsWith('/') ? row.path : `${row.path}/`;
    switch (row.scope) {
      case 'execution':
        listed.add(row.name);
        if (path !== `agents/${row.name}/`)
          bad(`execution-scope agent ${row.name} is at ${row.path}, expected agents/${row.name}/`);
        else if (!ctx.agents.includes(row.name)) bad(`agents/${row.name}/ does not exist`);
        break;
      case 'project':
        if (path !== `.prose/agents/${row.name}/`)
          bad(`project-scope agent ${row.name} is at ${row.path}, expected .prose/agents/${row.name}/`);
        else if (ctx.projectDir !== undefined && !isKind(join(ctx.projectDir, path), 'dir'))
          bad(`${path} does not exist`);
        break;
      case 'user':
        if (path !== `~/.prose/agents/${row.name}/`)
          bad(`user-scope agent ${row.name} is at ${row.path}, expected ~/.prose/agents/${row.name}/`);
        else if (ctx.homeDir !== undefined && !isKind(join(ctx.homeDir, path.slice(2)), 'dir'))
          bad(`${path} does not exist (home ${ctx.homeDir})`);
        break;
      default:
        if (!(AGENT_SCOPES as readonly string[]).includes(row.scope))
          bad(`Scope ${JSON.stringify(row.scope)} of ${row.name} is not execution, project, user or custom`);
    }
  }
  for (const a of facts.agentRows ? ctx.agents : []) {
    if (!listed.has(a))
      sink.add('index.unlisted', `agent directory agents/${a}/ is not in the Index`, { file: `agents/${a}/` });
  }
}
