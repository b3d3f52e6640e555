import type { RuleTable } from '../kit/rule-table.ts';

/**
 * Every rule the run-dir and prose-dir verifiers report, with its severity, the seed text it enforces and what to do.
 * docs/verify-rules.md lists them (a spec keeps the two in step).
 */
export const RUN_DIR_RULES = {
  'run.id': {
    severity: 'error',
    enforces:
      'filesystem.md "Run ID Format": {YYYYMMDD}-{HHMMSS}-{random6}, e.g. 20260115-143052-a7b3c9 (decisions run-id: UTC, lowercase hex).',
    hint: 'name the run directory like 20260115-143052-a7b3c9: a real UTC date and time, then six lowercase hex digits',
  },
  'run.program': {
    severity: 'error',
    enforces: 'filesystem.md "Directory Structure": program.prose, "Copy of running program".',
    hint: 'copy the running program to program.prose in the run directory',
  },
  'run.state': {
    severity: 'error',
    enforces: 'filesystem.md: state.md, "Execution state with code snippets" (sqlite.md: state.db instead).',
    hint: 'the VM writes state.md (or state.db) when the run starts',
  },
  'run.unreadable': {
    severity: 'error',
    enforces: 'filesystem.md "Key principle: Files are inspectable artifacts".',
    hint: 'check the file permissions; a file that cannot be read cannot be resumed from',
  },
  'run.stray-entry': {
    severity: 'warning',
    enforces: 'filesystem.md "Directory Structure": runs/ holds one directory per run.',
    hint: 'move files that are not runs out of .prose/runs/',
  },
  'import.name': {
    severity: 'error',
    enforces:
      'filesystem.md "Imports Recursive Structure": imports/{handle}--{slug}/ (decisions names: a handle holds no "--").',
    hint: 'name the import directory {handle}--{slug}, with plain names on both sides',
  },
  'state-md.heading': {
    severity: 'error',
    enforces: 'filesystem.md state.md example: the file starts with "# Execution State".',
    hint: 'start state.md with the line "# Execution State"',
  },
  'state-md.header': {
    severity: 'error',
    enforces: 'filesystem.md state.md example: header lines run:, program:, started:, updated: after the heading.',
    hint: 'write "key: value" header lines run, program, started and updated, then a blank line',
  },
  'state-md.header-format': {
    severity: 'error',
    enforces: 'filesystem.md: run: is the run id; started:/updated: are ISO 8601 UTC like 2026-01-15T14:30:52Z.',
    hint: 'write run: as {YYYYMMDD}-{HHMMSS}-{random6} and times as 2026-01-15T14:30:52Z',
  },
  'state-md.run-mismatch': {
    severity: 'error',
    enforces: 'filesystem.md: .prose/runs/{id}/state.md carries "run: {id}" of its own directory.',
    hint: 'the run: header must equal the run directory name',
  },
  'state-md.updated-before-started': {
    severity: 'warning',
    enforces: 'filesystem.md: updated: is when the VM last wrote state.md, so not before started:.',
    hint: 'check the VM clock; updated is set on every write',
  },
  'state-md.status': {
    severity: 'error',
    enforces:
      'Our extension (decisions state-md-event-log): status: is one of running, completed, failed, interrupted (sqlite.md run.status).',
    hint: 'write status: running|completed|failed|interrupted, or leave the line out',
  },
  'state-md.section': {
    severity: 'error',
    enforces:
      'filesystem.md: state.md shows the Execution Trace and an Index of all bindings and agents (### Bindings, ### Agents).',
    hint: 'add the missing "## Execution Trace" or "## Index" section with its "### Bindings" and "### Agents" tables',
  },
  'state-md.call-stack-missing': {
    severity: 'warning',
    enforces: 'filesystem.md state.md example ends with a "## Call Stack" table.',
    hint: 'add "## Call Stack" with the columns execution_id | block | depth | status (empty when no block runs)',
  },
  'state-md.trace': {
    severity: 'error',
    enforces: 'filesystem.md: the Execution Trace is the program as a fenced ```prose block with inline annotations.',
    hint: 'put the trace in one ```prose ... ``` block under "## Execution Trace"',
  },
  'state-md.trace-annotation': {
    severity: 'warning',
    enforces:
      'filesystem.md "Status annotations": # --> bindings/name.md, # <-- EXECUTING, # (complete), ' +
      '# [not yet entered], # [...next...], # <-- RETRYING (attempt 2/3).',
    hint: 'use one of the seed annotations (docs/verify-rules.md lists them, with ours: # <-- FAILED and # (skipped))',
  },
  'state-md.trace-binding': {
    severity: 'error',
    enforces: 'filesystem.md: "# --> bindings/name.md  Output written to this file".',
    hint: 'the annotation says the output was written: the binding file must exist (or drop the annotation)',
  },
  'state-md.table': {
    severity: 'error',
    enforces:
      'filesystem.md Index and Call Stack tables: | Name | Kind | Path | Execution ID |, | Name | Scope | Path |, | execution_id | block | depth | status |.',
    hint: 'use the seed columns in the seed order (extra trailing columns such as parent are allowed)',
  },
  'state-md.call-stack': {
    severity: 'error',
    enforces:
      'filesystem.md Call Stack: execution_id, block, depth (1 = first level), status executing|waiting; innermost first.',
    hint: 'one row per open frame, innermost first: positive execution_id and depth, status executing (first) or waiting',
  },
  'state-md.event-log': {
    severity: 'error',
    enforces:
      'Our extension (decisions state-md-event-log): "## Event Log" holds one "- {json event}" per line, closed by "<!-- N events -->" when present.',
    hint: 'each line of the event log is "- " and one JSON object with a "type"',
  },
  'index.path-missing': {
    severity: 'error',
    enforces: 'filesystem.md: the Index lists "all bindings and agents with file paths"; the VM "tracks file paths".',
    hint: 'the Index names a file that is not there: restore it, or refresh the Index',
  },
  'index.mismatch': {
    severity: 'error',
    enforces:
      'filesystem.md Index row: Name, Kind, Path bindings/{name}.md or bindings/{name}__{execution_id}.md, Execution ID (root) or the id.',
    hint: 'make the Index row agree with the binding file it names (name, kind, path and execution id)',
  },
  'index.unlisted': {
    severity: 'warning',
    enforces:
      'filesystem.md: the Index lists all bindings (decisions state-md-index-timing: a binding written since the VM last wrote is not yet listed).',
    hint: 'the VM adds it at its next write of state.md; if the run is over, the Index is stale',
  },
  'index.agent': {
    severity: 'error',
    enforces:
      'filesystem.md "Memory Scoping": execution agents/{name}/, project .prose/agents/{name}/, user ~/.prose/agents/{name}/.',
    hint: 'the Agents row must name an existing directory in the place its scope says',
  },
  'binding.file-name': {
    severity: 'error',
    enforces: 'filesystem.md: bindings/{name}.md at root, bindings/{name}__{execution_id}.md in a block invocation.',
    hint: 'name binding files {name}.md or {name}__{execution_id}.md (execution_id a positive integer)',
  },
  'binding.name': {
    severity: 'error',
    enforces:
      'decisions names: a binding name cannot escape bindings/ or collide (no / \\ .. control characters, NFC, <= 200 bytes).',
    hint: 'rename the binding to a plain name',
  },
  'binding.format': {
    severity: 'error',
    enforces:
      'filesystem.md binding file: "# name", kind:, optional execution_id:, source: with a ```prose block, the --- separator, then the value.',
    hint: 'write the file in the seed format (docs/decisions.md binding-file-value)',
  },
  'binding.kind': {
    severity: 'error',
    enforces: 'filesystem.md: "kind: field indicating type (input, output, let, const)".',
    hint: 'write kind: input, output, let or const',
  },
  'binding.name-mismatch': {
    severity: 'error',
    enforces: 'filesystem.md: bindings/{name}.md holds "# {name}".',
    hint: 'the heading must name the binding the file is named after',
  },
  'binding.execution-id': {
    severity: 'error',
    enforces:
      'session.md 6.1: "execution_id: {id}  # Include if inside a block invocation (omit for root scope)"; the file is {name}__{execution_id}.md.',
    hint: 'write execution_id: N exactly when the file is {name}__N.md',
  },
  'binding.source-blank': {
    severity: 'warning',
    enforces:
      "filesystem.md examples put the ```prose fence on the line after source: (session.md 6.1's template has a blank line there).",
    hint: 'remove the blank line between source: and the fence',
  },
  'binding.attachment': {
    severity: 'error',
    enforces:
      'sqlite.md "Large Outputs": attachments/{name}.md relative to the run (decisions fs-attachment-header, attachment-naming).',
    hint: 'the attachment: line must name an existing file under attachments/ of this run',
  },
  'binding.too-large': {
    severity: 'warning',
    enforces:
      'sqlite.md: "If a binding value exceeds ~100KB, write to attachments/{name}.md" (decisions attachment-threshold: > 102,400 UTF-8 bytes).',
    hint: 'move the value to attachments/ and keep a summary in the binding file',
  },
  'binding.anon-sequence': {
    severity: 'warning',
    enforces:
      'filesystem.md: anon_001, anon_002, ...; session.md: "The VM assigns sequential numbers" (decisions anon-numbering: one counter per run).',
    hint: 'anonymous bindings are numbered from anon_001 without gaps or repeats (a gap may be a session that never wrote)',
  },
  'attachment.orphan': {
    severity: 'warning',
    enforces: 'sqlite.md "Large Outputs": an attachment holds the value of one binding.',
    hint: 'no binding names this attachment: remove it, or add the attachment: line to its binding',
  },
  'agent.name': {
    severity: 'error',
    enforces: 'decisions names: an agent directory name cannot escape agents/ or collide.',
    hint: 'rename the agent directory to a plain name',
  },
  'agent.memory-missing': {
    severity: 'warning',
    enforces: 'filesystem.md: agents/{name}/memory.md, "Agent\'s current state".',
    hint: 'a persistent agent writes memory.md whenever it runs',
  },
  'agent.memory-heading': {
    severity: 'warning',
    enforces: 'session.md 6.3: memory.md starts with "# Agent Memory: {name}".',
    hint: 'start memory.md with "# Agent Memory: NAME", NAME the agent directory',
  },
  'agent.memory-sections': {
    severity: 'warning',
    enforces: 'session.md 6.3: "## Current Understanding", "## Decisions Made", "## Open Concerns".',
    hint: 'keep the three sections, even when one is empty',
  },
  'agent.unknown-file': {
    severity: 'warning',
    enforces: 'filesystem.md: an agent directory holds memory.md and {name}-NNN.md segments.',
    hint: 'move other files out of the agent directory',
  },
  'segment.file-name': {
    severity: 'error',
    enforces:
      'filesystem.md "Segment Numbering": 3-digit zero-padded ({name}-001.md), 4 digits past 999 ({name}-1000.md).',
    hint: 'name segments {agent}-NNN.md: three digits, more only past 999, no extra leading zeros',
  },
  'segment.format': {
    severity: 'error',
    enforces: 'filesystem.md/session.md segment file: "# Segment NNN", timestamp:, prompt: "...", "## Summary".',
    hint: 'write the segment in the seed format (prompt as a quoted string)',
  },
  'segment.number-mismatch': {
    severity: 'error',
    enforces: 'filesystem.md: {name}-001.md holds "# Segment 001".',
    hint: 'the heading number must be the number in the file name',
  },
  'segment.timestamp': {
    severity: 'error',
    enforces: 'session.md 6.3: "timestamp: {ISO8601}", e.g. 2026-01-15T14:32:15Z.',
    hint: 'write the timestamp as ISO 8601, e.g. 2026-01-15T14:32:15Z',
  },
  'segment.sequence': {
    severity: 'error',
    enforces:
      'filesystem.md: captain-001.md, captain-002.md, ... (decisions segment-numbering: per agent and scope, from 001).',
    hint: 'segments are numbered from 001 without gaps; a missing number is a lost segment',
  },
} as const satisfies RuleTable;

export type RunDirRuleId = keyof typeof RUN_DIR_RULES;
