import type { DecisionRow } from './decision-row.ts';

/** How `prose-state verify` reads what the seed leaves open about state that is already on disk. */
export const VERIFY_DECISIONS: DecisionRow[] = [
  {
    id: 'verify-severity',
    area: 'verify',
    spec: 'The seeds say what a run directory and state.db hold; they do not say which departures break a resume.',
    choice:
      'A finding is an error when the spec text is broken (a file, field, table or column it requires is missing or malformed; a path the state names is not there); a warning when the state is only suspicious (stale Index, unknown annotation, orphan attachment, memory structure, anon gaps). `verify` exits 1 on any error, 0 on warnings alone.',
    why: 'Warnings cover what a correct VM can leave behind between two writes, or what the agent owns (its memory); errors are what no correct writer produces.',
  },
  {
    id: 'verify-state-md-extensions',
    area: 'verify',
    spec: 'filesystem.md shows one state.md example: heading, run/program/started/updated, Execution Trace, Active Constructs, Index, Call Stack.',
    choice:
      'Required: "# Execution State", the four header fields (run a run id equal to the directory name at top level; started/updated ISO 8601), "## Execution Trace" with a ```prose block, "## Index" with "### Bindings" and "### Agents" tables in the seed columns. Accepted but not required: our `status:` header, a trailing `parent` column in the Call Stack, a `## Event Log` section, any other header line or section. A missing Call Stack is a warning.',
    why: 'A hand-written seed state.md and ours must both pass; the Index is what the seed says a resume relies on, the Call Stack only appears in the example.',
  },
  {
    id: 'verify-trace-annotations',
    area: 'verify',
    spec: 'filesystem.md "Status annotations": # --> bindings/name.md, # <-- EXECUTING, # (complete), # [not yet entered], # [...next...], # <-- RETRYING (attempt 2/3); the example also writes "# --> bindings/a.md (complete)".',
    choice:
      'A trace comment that starts with -->, <--, ( or [ is an annotation and must be one of the seed forms (RETRYING with attempt <= max), or one our filesystem backend writes for outcomes the seed has no form for: "# <-- FAILED[: message]" and "# (skipped)". Unknown ones are warnings; other comments are the program\'s. A "# --> bindings/x.md" whose file is missing is an error.',
    why: 'The seed lists annotations as a table of meanings, not a closed grammar; the one claim a checker can hold to is that a written output exists.',
  },
  {
    id: 'verify-anon-gaps',
    area: 'verify',
    spec: 'filesystem.md: anon_001, anon_002, ...; session.md: "The VM assigns sequential numbers".',
    choice:
      'Anonymous bindings of a run (all scopes, one counter: decisions anon-numbering) are numbered from anon_001, 3 digits, growing past 999; a gap, a repeat or a wrong width is a warning.',
    why: 'The VM allocates a number before the session runs: a failed or still-running session leaves a gap a correct VM can produce.',
  },
  {
    id: 'verify-segment-gaps',
    area: 'verify',
    spec: 'filesystem.md: captain-001.md, captain-002.md, ...; 4 digits past 999.',
    choice:
      'Segments of an agent (per scope location) are numbered from 001 without gaps; a gap is an error; a file {agent}-NNNN.md with the wrong width is an error; the heading number must equal the file number.',
    why: 'The agent allocates and writes its segment in one step (exclusive create), so a gap is a lost segment.',
  },
  {
    id: 'verify-timestamps',
    area: 'verify',
    spec: "state.md started:/updated: and segment timestamp: are \"ISO8601\" (examples 2026-01-15T14:30:52Z); sqlite.md's datetime('now') writes YYYY-MM-DD HH:MM:SS.",
    choice:
      'In files, a timestamp is YYYY-MM-DDTHH:MM:SS, optional fraction, and Z or +hh:mm, and a real instant; the SQLite space form is refused there. Timestamps inside state.db are not checked.',
    why: "Every file example has the T and the zone; the database's own default is the seed's, so holding it to ISO would fail every seed-made database.",
  },
  {
    id: 'verify-source-blank',
    area: 'verify',
    spec: "filesystem.md and session.md examples put the ```prose fence right under source:; session.md 6.1's template has a blank line between.",
    choice:
      'A blank line between source: and the fence is accepted with a warning (binding.source-blank); everything else follows parseBindingFile, so header lines end in LF (a CRLF header is binding.format) while the value may hold any bytes.',
    why: 'A subagent following the template is not wrong enough to make the run unreadable.',
  },
  {
    id: 'verify-index-agents',
    area: 'verify',
    spec: 'filesystem.md Index Agents table: Name | Scope | Path, example "captain | execution | agents/captain/"; Memory Scoping gives each scope\'s directory.',
    choice:
      'Execution scope: Path is agents/{name}/ relative to the run and must exist; project: .prose/agents/{name}/ (checked when the run sits in a .prose/runs/); user: ~/.prose/agents/{name}/ (checked with --home); custom: not checked. An agent directory of the run missing from the Index is a warning, like a binding (state-md-index-timing).',
    why: 'Paths are written relative to where the scope lives; ~ is only known when the user says what it is.',
  },
  {
    id: 'verify-run-layout',
    area: 'verify',
    spec: 'filesystem.md runs hold state.md; sqlite.md runs hold state.db (and program.prose, attachments/) in the same run directory.',
    choice:
      'A run directory with state.md is checked as filesystem state; one with state.db and no state.md as SQLite state (the database rules, attachments relative to the run); neither is an error. Imports are checked recursively either way; an import directory name is {handle}--{slug} and is not a run id. Dot files (writes in flight) are skipped.',
    why: 'prose-dir must verify projects of either backend with one command.',
  },
  {
    id: 'verify-db-schema',
    area: 'verify',
    spec: 'sqlite.md: "minimum viable schema - extend freely"; "Add columns"; extension tables prefixed x_.',
    choice:
      "The seed's core tables and columns must exist (agents.db: agents and agent_segments); added columns and x_ tables are fine; the HEAD canonical tables (world_model_version, world_model_published, receipt) are known; any other table is a warning. execution.status may be a seed status, a HEAD event token (started, joined, iteration, exited, retry) or ours (allocated); others are warnings.",
    why: 'Holds writers to what the seed names without refusing the extensions it invites.',
  },
  {
    id: 'verify-db-execution-id',
    area: 'verify',
    spec: 'sqlite.md joins bindings.execution_id to execution.id; decisions execution-id makes it a per-run invocation counter.',
    choice:
      "bindings.execution_id must be NULL or a positive integer; it is not required to match an execution row. execution.parent_id must name an existing row. Agents in a run's state.db have scope execution, in agents.db another scope (a warning otherwise).",
    why: "The two readings of execution_id disagree; a checker holding either would fail the other's backends.",
  },
];
