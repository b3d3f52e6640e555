import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDirRuleId } from '../../../src/verify/run-dir/rules.ts';
import { RUN_ID, type FixtureCopy } from './fixture-copy.ts';

export interface Mutation {
  rule: RunDirRuleId;
  /** What the copy gets wrong, in words. */
  what: string;
  apply(c: FixtureCopy): void;
  /** Other rules the same mutation rightly trips. */
  also?: RunDirRuleId[];
  /** The file (as reported, relative to .prose/) the finding must name. */
  file?: string;
}

const R = `runs/${RUN_ID}`;
const I = `${R}/imports/alice--summarizer`;
const binding = (name: string, body = 'a value\n', head = `# ${name}\n\nkind: let\n`) =>
  `${head}\nsource:\n\`\`\`prose\nlet ${name} = session "x"\n\`\`\`\n\n---\n\n${body}`;

/** One mutation of the valid fixture per rule: the broken corpus. */
export const RUN_DIR_MUTATIONS: Mutation[] = [
  {
    rule: 'run.id',
    what: 'a run directory named run-1',
    apply: (c) => renameSync(c.run, join(c.prose, 'runs', 'run-1')),
  },
  {
    rule: 'run.program',
    what: 'no program.prose',
    apply: (c) => rmSync(join(c.run, 'program.prose')),
    file: `${R}/program.prose`,
  },
  {
    rule: 'run.state',
    what: 'an import without state.md',
    apply: (c) => rmSync(join(c.imp, 'state.md')),
    file: `${I}/state.md`,
  },
  {
    rule: 'run.unreadable',
    what: 'a binding file that is a directory',
    apply: (c) => mkdirSync(join(c.run, 'bindings', 'odd.md')),
    file: `${R}/bindings/odd.md`,
  },
  {
    rule: 'run.stray-entry',
    what: 'a file in runs/',
    apply: (c) => c.write('runs/notes.txt', 'x'),
    file: 'runs/notes.txt',
  },
  {
    rule: 'import.name',
    what: 'an import without --',
    apply: (c) => mkdirSync(join(c.run, 'imports', 'summarizer')),
    file: `${R}/imports/summarizer`,
  },
  {
    rule: 'state-md.heading',
    what: 'heading "# State"',
    apply: (c) => c.edit(`${R}/state.md`, '# Execution State', '# State'),
  },
  {
    rule: 'state-md.header',
    what: 'no program: line',
    apply: (c) => c.edit(`${R}/state.md`, 'program: feature-implementation.prose\n', ''),
  },
  {
    rule: 'state-md.header-format',
    what: 'started: in SQLite datetime form',
    apply: (c) => c.edit(`${R}/state.md`, 'started: 2026-01-15T14:30:52Z', 'started: 2026-01-15 14:30:52'),
  },
  {
    rule: 'state-md.run-mismatch',
    what: 'run: of another run',
    apply: (c) => c.edit(`${R}/state.md`, 'run: 20260115-143052-a7b3c9', 'run: 20260115-143052-ffffff'),
  },
  {
    rule: 'state-md.updated-before-started',
    what: 'updated before started',
    apply: (c) => c.edit(`${R}/state.md`, 'updated: 2026-01-15T14:35:22Z', 'updated: 2026-01-15T14:00:00Z'),
  },
  {
    rule: 'state-md.status',
    what: 'status: paused',
    apply: (c) => c.edit(`${R}/state.md`, 'started:', 'status: paused\nstarted:'),
  },
  {
    rule: 'state-md.section',
    what: 'no Execution Trace section',
    apply: (c) => c.edit(`${R}/state.md`, '## Execution Trace', '## Trace'),
  },
  {
    rule: 'state-md.call-stack-missing',
    what: 'no Call Stack',
    apply: (c) => c.edit(`${R}/state.md`, /## Call Stack[\s\S]*$/, ''),
  },
  {
    rule: 'state-md.trace',
    what: 'the trace fenced as text',
    apply: (c) => c.edit(`${R}/state.md`, '```prose', '```text'),
  },
  {
    rule: 'state-md.trace-annotation',
    what: '# <-- RUNNING',
    apply: (c) => c.edit(`${R}/state.md`, '# <-- EXECUTING', '# <-- RUNNING'),
  },
  {
    rule: 'state-md.trace-binding',
    what: 'the trace names a missing file',
    apply: (c) => c.edit(`${R}/state.md`, '# --> bindings/a.md (complete)', '# --> bindings/zz.md (complete)'),
  },
  {
    rule: 'state-md.table',
    what: 'Index columns swapped',
    apply: (c) =>
      c.edit(`${R}/state.md`, '| Name | Kind | Path | Execution ID |', '| Name | Path | Kind | Execution ID |'),
  },
  {
    rule: 'state-md.call-stack',
    what: 'depth "two"',
    apply: (c) => c.edit(`${R}/state.md`, '| 42 | process | 2 | waiting |', '| 42 | process | two | waiting |'),
  },
  {
    rule: 'state-md.event-log',
    what: 'an event log line that is not JSON',
    apply: (c) => c.edit(`${R}/state.md`, /$/, '\n## Event Log\n\n- {"type":"statement"}\n- not json\n'),
  },
  {
    rule: 'index.path-missing',
    what: 'result__43.md deleted',
    apply: (c) => rmSync(join(c.run, 'bindings', 'result__43.md')),
  },
  {
    rule: 'index.mismatch',
    what: 'the Index says a is const',
    apply: (c) =>
      c.edit(`${R}/state.md`, '| a | let | bindings/a.md | (root) |', '| a | const | bindings/a.md | (root) |'),
  },
  {
    rule: 'index.unlisted',
    what: 'a binding the Index does not list',
    apply: (c) => c.write(`${R}/bindings/extra.md`, binding('extra')),
    file: `${R}/bindings/extra.md`,
  },
  {
    rule: 'index.agent',
    what: 'captain at agents/kapitan/',
    apply: (c) =>
      c.edit(`${R}/state.md`, '| captain | execution | agents/captain/ |', '| captain | execution | agents/kapitan/ |'),
  },
  { rule: 'binding.file-name', what: 'bindings/notes.txt', apply: (c) => c.write(`${R}/bindings/notes.txt`, 'x') },
  { rule: 'binding.name', what: 'bindings/CON.md', apply: (c) => c.write(`${R}/bindings/CON.md`, binding('CON')) },
  { rule: 'binding.format', what: 'no --- separator', apply: (c) => c.edit(`${R}/bindings/a.md`, '---\n\n', '') },
  {
    rule: 'binding.kind',
    what: 'kind: var',
    apply: (c) => c.edit(`${R}/bindings/a.md`, 'kind: let', 'kind: var'),
    file: `${R}/bindings/a.md`,
  },
  {
    rule: 'binding.name-mismatch',
    what: 'a.md headed # b',
    apply: (c) => c.edit(`${R}/bindings/a.md`, '# a\n', '# b\n'),
  },
  {
    rule: 'binding.execution-id',
    what: 'result__43.md without execution_id',
    apply: (c) => c.edit(`${R}/bindings/result__43.md`, 'execution_id: 43\n', ''),
  },
  {
    rule: 'binding.source-blank',
    what: 'a blank line after source:',
    apply: (c) => c.edit(`${R}/bindings/a.md`, 'source:\n', 'source:\n\n'),
  },
  {
    rule: 'binding.attachment',
    what: 'an attachment that is not there',
    apply: (c) => c.edit(`${R}/bindings/a.md`, 'kind: let\n', 'kind: let\nattachment: attachments/a.md\n'),
  },
  {
    rule: 'binding.too-large',
    what: 'a 200 KB value inline',
    apply: (c) => c.edit(`${R}/bindings/a.md`, 'Risk A', 'x'.repeat(200_000)),
  },
  {
    rule: 'binding.anon-sequence',
    what: 'anon_004 after anon_002',
    apply: (c) => c.write(`${I}/bindings/anon_004.md`, binding('anon_004')),
    also: ['index.unlisted'],
  },
  {
    rule: 'attachment.orphan',
    what: 'an attachment no binding names',
    apply: (c) => {
      mkdirSync(join(c.run, 'attachments'));
      c.write(`${R}/attachments/old.md`, 'x');
    },
  },
  { rule: 'agent.name', what: 'an agent directory " bad"', apply: (c) => mkdirSync(join(c.run, 'agents', ' bad')) },
  {
    rule: 'agent.memory-missing',
    what: 'captain without memory.md',
    apply: (c) => rmSync(join(c.run, 'agents', 'captain', 'memory.md')),
  },
  {
    rule: 'agent.memory-heading',
    what: '# Memory: captain',
    apply: (c) => c.edit(`${R}/agents/captain/memory.md`, '# Agent Memory: captain', '# Memory: captain'),
  },
  {
    rule: 'agent.memory-sections',
    what: 'no Open Concerns',
    apply: (c) => c.edit(`${R}/agents/captain/memory.md`, '## Open Concerns', '## Worries'),
  },
  {
    rule: 'agent.unknown-file',
    what: 'notes.txt in an agent directory',
    apply: (c) => c.write(`${R}/agents/captain/notes.txt`, 'x'),
  },
  {
    rule: 'segment.file-name',
    what: 'reviewer-0002.md',
    apply: (c) =>
      renameSync(join(c.prose, 'agents/reviewer/reviewer-002.md'), join(c.prose, 'agents/reviewer/reviewer-0002.md')),
    file: 'agents/reviewer/reviewer-0002.md',
  },
  {
    rule: 'segment.format',
    what: 'no ## Summary',
    apply: (c) => c.edit(`${R}/agents/captain/captain-001.md`, '## Summary', '## Notes'),
  },
  {
    rule: 'segment.number-mismatch',
    what: 'captain-001.md headed Segment 002',
    apply: (c) => c.edit(`${R}/agents/captain/captain-001.md`, '# Segment 001', '# Segment 002'),
  },
  {
    rule: 'segment.timestamp',
    what: 'timestamp: yesterday',
    apply: (c) =>
      c.edit(`${R}/agents/captain/captain-001.md`, 'timestamp: 2026-01-15T14:32:15Z', 'timestamp: yesterday'),
  },
  {
    rule: 'segment.sequence',
    what: 'reviewer-001 then reviewer-003',
    apply: (c) => {
      renameSync(join(c.prose, 'agents/reviewer/reviewer-002.md'), join(c.prose, 'agents/reviewer/reviewer-003.md'));
      c.edit('agents/reviewer/reviewer-003.md', '# Segment 002', '# Segment 003');
    },
  },
];
