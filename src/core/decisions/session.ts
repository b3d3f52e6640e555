import type { DecisionRow } from './decision-row.ts';

/** What the subagent protocol (session.md 5-7, filesystem.md and sqlite.md "From Subagents") leaves open. */
export const SESSION_DECISIONS: DecisionRow[] = [
  {
    id: 'session-pointer-limits',
    area: 'session',
    spec: 'session.md 7.1-7.3: return a confirmation, "not your full output"; Summary is "1-2 sentences". No numbers.',
    choice:
      'Summary at most 300 characters (error message.summary-length). A binding value longer than 200 characters found in the message (whole, or its first 200 characters) is message.value-echo. More than 20 lines besides confirmation and signals is message.not-pointer; fewer is a message.extra-text warning.',
    why: 'Two sentences fit in 300 characters; values up to 200 characters are short enough that quoting them in a Summary is not "carrying the value".',
  },
  {
    id: 'session-location-forms',
    area: 'session',
    spec: "session.md 7.1 shows file paths and `openprose.bindings WHERE name='research' AND run_id='...' [AND execution_id=43]`; sqlite.md gives no confirmation form; no form is given for memory in a database.",
    choice:
      "filesystem: a path relative to the project (absolute and ~/ accepted). sqlite: `{db} (bindings table, name='x', execution_id=NULL|N)` and `{db} (agents table, name='a')`. postgres: the seed's WHERE form, and `openprose.agents WHERE name='a' AND scope='execution' AND run_id='...'` for memory. `Segment: a-NNN.md` names a database segment by number too.",
    why: "The sqlite form is what the sqlite backend answers to bind; the postgres form is the seed's; one Segment line for all backends keeps the message backend-neutral.",
  },
  {
    id: 'session-one-binding',
    area: 'session',
    spec: 'session.md 7: one confirmation per session; 7.4 adds one memory block.',
    choice:
      'A message holds one "Binding written:" block and at most one "Memory updated:" block; each line once per block; a second one is message.repeated-line. Keys match case-sensitively (a mis-cased key is message.malformed-line). Code-fence lines around the message are ignored.',
    why: 'The VM records one pointer per session; two candidates for one field leave it guessing.',
  },
  {
    id: 'session-segment-numbering',
    area: 'session',
    spec: 'filesystem.md: segments 001, 002, ... extended to 4 digits past 999; nothing on gaps.',
    choice:
      'The segment a message names must exist and be the newest; numbers run 1..max with no gap (segment.number-skip) and none twice (segment.number-repeat, also for a non-canonical name such as captain-0003.md beside captain-003.md). When the VM handed out a number, the message must name it.',
    why: 'The number is how the next session finds its history; a gap or an old number means a segment was lost or overwritten.',
  },
  {
    id: 'session-memory-structure',
    area: 'session',
    spec: "session.md 6.3: `# Agent Memory: NAME`, Current Understanding, Decisions Made as `- {date}: {decision} — {rationale}`, Open Concerns; 3.4 and 4.1 add Segment N Summary and Recent/Earlier Segments sections. filesystem.md's example writes the rationale in parentheses.",
    choice:
      'The heading and the three sections (once each) are errors when missing; other ## sections are allowed. A decision must start `- YYYY-MM-DD[THH:MM...]: `; its rationale is text after " — ", " – ", " -- " or " - ", a closing parenthesised clause, or "because/since/so that" (missing: a warning). Continuation lines (indented) are allowed.',
    why: 'Both seed forms (em dash, parentheses) pass; the specificity rules of 3.1-3.6 are advice, so they warn.',
  },
  {
    id: 'session-specificity',
    area: 'session',
    spec: 'session.md 3.1-3.6: compaction preserves specific locations, exact findings, numbers, names; "Reviewed the implementation. Found some issues." is the bad example.',
    choice:
      "A segment summary (file, row, or `## Segment N Summary` in memory) with no digit, path, file name, dotted/camel/snake identifier, call, code span or quoted name gets a warning (segment.specificity, memory.specificity). The seed's own filesystem.md segment example gets this warning.",
    why: 'A check a person can act on without judging prose: name one thing future-you can look up.',
  },
  {
    id: 'session-segment-fields',
    area: 'session',
    spec: 'session.md 6.3: the segment Summary lists Reviewed, Found, Decided, Next; timestamp ISO 8601; prompt in quotes.',
    choice:
      "Each of the four fields once, in order (Found may hold sub-bullets): errors. timestamp in a file must be ISO 8601 with a zone; in a database row sqlite's datetime('now') form is accepted too. The prompt is a JSON string literal (the backends' segment-file format).",
    why: "The seed names the fields in a fixed template; rows made by the seed's sqlite defaults would otherwise all fail.",
  },
  {
    id: 'session-signals',
    area: 'session',
    spec: 'session.md 5.1-5.3 signal templates.',
    choice:
      'DECISION needs RATIONALE, except "DECISION: Request revision", which needs ISSUES with at least one item (`1.`, `-`, `*`) and REQUIRED CHANGES. CONCERN needs SEVERITY low|medium|high (any case) and TRACKING. SEGMENT COMPLETE needs MEMORY UPDATES with an item and READY FOR. A field outside its signal is signal.orphan. A signal ends at the next signal, a confirmation line, or a line that is neither a field nor an item; blank lines inside are allowed.',
    why: 'The VM acts on these lines: a decision without its rationale or a concern without a severity cannot be routed.',
  },
  {
    id: 'session-sqlite-command',
    area: 'session',
    spec: 'sqlite.md "From Subagents": `sqlite3 DB "INSERT OR REPLACE INTO bindings (...) VALUES (...)"`; no busy timeout, no quoting rule for the value.',
    choice:
      'Instructions print `sqlite3 -cmd ".timeout 10000" DB "SQL"` (or `prose-state sqlite3 ...` when sqlite3 is not on PATH, or when forced with --sqlite3). The VM\'s values are bound as SQL literals escaped for shell double quotes; the value is a <VALUE> placeholder with the two-step rule stated: double every \', then backslash \\ $ ` and ". Agents use INSERT ... ON CONFLICT (name) DO UPDATE instead of the seed\'s UPDATE (which changes nothing for a new agent), and the segment row carries an explicit ISO timestamp and the number the VM handed out.',
    why: 'Without .timeout 89% of parallel writes were lost; the seed\'s own example already escapes " with a backslash.',
  },
  {
    id: 'session-psql-command',
    area: 'session',
    spec: 'postgres.md (seed): subagents get the connection; HEAD: the credential must never be exposed.',
    choice:
      "Instructions print `psql \"$OPENPROSE_POSTGRES_URL\" -v ON_ERROR_STOP=1 -v name='...' ... <<'PROSE_SQL'` with the SQL in a quoted here-document using :'var' (psql quotes each value for SQL). The URL is never printed; the value placeholder's rule is \"write each ' as '\\''\". Postgres agent instructions need --segment N (the CLI does not connect).",
    why: 'psql does not interpolate variables in -c; a quoted here-document expands nothing, so only one quoting level is left to the subagent.',
  },
  {
    id: 'session-vm-inits-agents-db',
    area: 'session',
    spec: 'sqlite.md: "The VM initializes these databases on first use and provides the correct path to subagents." It does not say when, or with which statements.',
    choice:
      'Before instructions for a project- or user-scope agent on sqlite are handed out (`prose-state instructions`, and the conformance VM), the VM creates a missing .prose/agents.db or ~/.prose/agents.db with the agents and agent_segments tables and our schema mark; an existing file is left as it is. A `~/` path in a printed command stays outside the quotes so the shell expands it.',
    why: 'A first session\'s INSERT otherwise fails with "no such table" or "unable to open database": the subagent has no other moment to learn the database is new.',
  },
  {
    id: 'session-protocol-area',
    area: 'session',
    spec: 'session.md 6-7 describe what a subagent writes and returns; nothing says how a conformance run plays the subagent.',
    choice:
      "The session-protocol area runs on backends declaring subagent-writes. A scripted subagent follows the printed instructions literally: files as shown; sqlite commands through sh with the real sqlite3 when it is on PATH, else `prose-state sqlite3`; the psql script with :'var' quoted as psql does, sent on the storage's own connection (StorageView.subagentScript), since pg-mem has no psql. A reused segment number is refused by sqlite and postgres (unique key), overwritten on the filesystem; the checker must flag the message either way.",
    why: 'Following the text literally is what catches wrong instructions; the real sqlite3 is what users run, the shim what offline machines run.',
  },
];
