// The seed's `.prose/` tree (filesystem.md), written as a projection of the JSON state after every commit, so
// the layout can be checked file by file. Attachments live only here: a binding's large value is its file.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirDurable, writeFileDurable } from './durable-file.js';
import { fail } from './errors.js';

const pad = (n, width) => String(n).padStart(width, '0');

export const writeAtomic = writeFileDurable;

/** `{name}.md` at root, `{name}__{execution_id}.md` in a frame. */
export const bindingFile = (name, executionId) => (executionId === null ? `${name}.md` : `${name}__${executionId}.md`);

/** A fence longer than any run of backticks in the source, so a source can hold fences of its own. */
function fenceFor(source) {
  const longest = Math.max(0, ...[...source.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function formatBinding(b, value) {
  const source = b.source ?? '';
  const fence = fenceFor(source);
  const head = [`# ${b.name}`, '', `kind: ${b.kind}`];
  if (b.executionId !== null) head.push(`execution_id: ${b.executionId}`);
  if (b.attachment) head.push(`attachment: ${b.attachment}`);
  head.push('', 'source:', `${fence}prose`);
  if (source.length > 0) head.push(source);
  head.push(fence, '', '---', '', '');
  return head.join('\n') + value;
}

export class SeedLayout {
  constructor(env) {
    this.env = env;
  }

  runDir(ref) {
    return join(this.env.projectDir, '.prose', 'runs', ...ref.split('/'));
  }

  agentDir(loc) {
    switch (loc.scope) {
      case 'execution':
        return join(this.runDir(loc.run), 'agents', loc.agent);
      case 'project':
        return join(this.env.projectDir, '.prose', 'agents', loc.agent);
      case 'user':
        return join(this.env.homeDir, '.prose', 'agents', loc.agent);
      default:
        return join(this.env.projectDir, loc.path, loc.agent);
    }
  }

  /** Where the seed says a location is, relative to the project (or `~/` for user scope), for answers. */
  relative(file) {
    if (file.startsWith(this.env.homeDir + '/')) return `~/${file.slice(this.env.homeDir.length + 1)}`;
    return file.slice(this.env.projectDir.length + 1);
  }

  writeRun(ref, run) {
    mkdirDurable(join(this.runDir(ref), 'bindings'));
    writeAtomic(join(this.runDir(ref), 'program.prose'), run.program);
  }

  /** Writes a binding file; a large value goes to attachments/ and a small one removes an old attachment. */
  writeBinding(ref, record, value) {
    const dir = this.runDir(ref);
    const attachment = join(dir, 'attachments', bindingFile(record.name, record.executionId));
    if (record.attachment) writeAtomic(attachment, value);
    else rmSync(attachment, { force: true });
    const file = join(dir, 'bindings', bindingFile(record.name, record.executionId));
    writeAtomic(file, formatBinding(record, record.attachment ? '' : value));
    return this.relative(file);
  }

  readAttachment(ref, record) {
    try {
      return readFileSync(join(this.runDir(ref), record.attachment), 'utf8');
    } catch (err) {
      return fail('E_CORRUPT', `attachment ${record.attachment} of ${record.name} cannot be read: ${err.message}`);
    }
  }

  writeMemory(loc, memory) {
    const file = join(this.agentDir(loc), 'memory.md');
    writeAtomic(file, memory);
    return this.relative(file);
  }

  writeSegment(loc, seg, width) {
    const text = `# Segment ${pad(seg.number, width)}\n\ntimestamp: ${seg.timestamp}\nprompt: ${JSON.stringify(seg.prompt)}\n\n## Summary\n\n${seg.summary}`;
    writeAtomic(join(this.agentDir(loc), seg.file), text);
  }

  /** state.md: the header, the index of bindings and agents, and the call stack (the VM's view of the run). */
  writeState(ref, run, state, agents) {
    const out = [
      '# Execution State',
      '',
      `run: ${run.runId}`,
      `program: ${run.programPath ?? 'program.prose'}`,
      `status: ${run.status}`,
      `started: ${run.startedAt}`,
      '',
    ];
    out.push('## Execution Trace', '', '```prose', ...traceLines(run.events), '```', '');
    out.push(
      '## Index',
      '',
      '### Bindings',
      '',
      '| Name | Kind | Path | Execution ID |',
      '|------|------|------|--------------|',
    );
    for (const b of Object.values(run.bindings))
      out.push(
        `| ${b.name} | ${b.kind} | bindings/${bindingFile(b.name, b.executionId)} | ${b.executionId ?? '(root)'} |`,
      );
    out.push('', '### Agents', '', '| Name | Scope | Path |', '|------|-------|------|');
    for (const a of agents) out.push(`| ${a} | execution | agents/${a}/ |`);
    out.push(
      '',
      '## Call Stack',
      '',
      '| execution_id | block | depth | status |',
      '|--------------|-------|-------|--------|',
    );
    const stack = [...state.frames.values()]
      .filter((f) => f.status === 'executing')
      .sort((a, b) => b.depth - a.depth || b.executionId - a.executionId);
    stack.forEach((f, i) =>
      out.push(`| ${f.executionId} | ${f.block} | ${f.depth} | ${i === 0 ? 'executing' : 'waiting'} |`),
    );
    writeAtomic(join(this.runDir(ref), 'state.md'), `${out.join('\n')}\n`);
  }
}

/** One line per statement, annotated with its latest status (filesystem.md "Status annotations"). */
function traceLines(events) {
  const latest = new Map();
  const retry = new Map();
  for (const e of events) {
    if (e.type === 'retry') retry.set(e.index, `# <-- RETRYING (attempt ${e.attempt}/${e.max})`);
    if (e.type !== 'statement') continue;
    const note =
      e.status === 'executing'
        ? (retry.get(e.index) ?? '# <-- EXECUTING')
        : e.status === 'completed'
          ? '# (complete)'
          : e.status === 'failed'
            ? `# <-- FAILED${e.error ? `: ${e.error.split('\n')[0]}` : ''}`
            : '# (skipped)';
    latest.set(e.index, `${e.text.split('\n')[0].padEnd(44)} ${note}`);
  }
  return [...latest.entries()].sort((a, b) => a[0] - b[0]).map(([, line]) => line);
}
