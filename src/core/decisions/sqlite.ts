import type { DecisionRow } from './decision-row.ts';

/** Choices of the SQLite backend (sqlite.md on WASM SQLite); docs/sqlite.md explains them at length. */
export const SQLITE_DECISIONS: DecisionRow[] = [
  {
    id: 'sqlite-persistence',
    area: 'sqlite',
    spec: 'sqlite.md: "Single-file portability"; "Atomic transactions"; "Concurrent access: SQLite handles locking automatically". WASM SQLite in Node has no on-disk VFS.',
    choice:
      "WASM SQLite works on the real file through a VFS over node:fs registered with sqlite-wasm (src/sqlite/node-fs-vfs.ts): a commit writes the pages it changed in place behind a rollback journal, PRAGMA synchronous=FULL, xSync = fdatasync (what SQLite's unix VFS does on Linux) plus an fsync of the directory after creating a file. A crash leaves a hot journal that the next opener, ours or the sqlite3 CLI, plays back. Connections stay open in normal (never EXCLUSIVE) locking mode, so SQLite checks the header's change counter at each transaction and drops pages another process changed. Export-on-commit (the whole file written, fsync'd and renamed per commit) is gone: settings print persistence=pages-in-place.",
    why: 'Export-on-commit made each commit O(database size): 1,000 bindings of 1.1 KB rewrote a ~1 MB file per binding. In place, a one-row commit writes ~17 KB whether the file holds 40 KB or 5 MB (commit-writes-changed-pages.spec.ts counts it in /proc/self/io). prose-state bench (1,000 bindings) on the reference VM: 294 bindings/s before (5.7x the time of native sqlite3 running the same INSERTs batched), 902/s after (1.7x). Keeping export-on-commit as an option would keep a second, slower way to the same guarantee.',
  },
  {
    id: 'sqlite-journal',
    area: 'sqlite',
    spec: 'sqlite.md names no journal mode; "Atomic transactions".',
    choice:
      "journal_mode=PERSIST (the journal stays beside the database, its header zeroed after each commit) with journal_size_limit 1 MiB; databases we create get 4 KiB pages (the CLI's default; the WASM build's is 8 KiB); on SQLite's size hint the database file grows ahead by an eighth of its size (64 KiB to 1 MiB) of real zero bytes, as the unix VFS does with a chunk size. Never WAL.",
    why: 'A commit costs its four syncs. With PERSIST and growth ahead none of them carries a file-system metadata change (no journal created, truncated or deleted, no file lengthened), so each is a plain data flush. Medians of three interleaved runs of 1,000 bindings: PERSIST 1.5 ms per binding (1.95x native batched in the same run), TRUNCATE 1.8 ms (3.1x), DELETE 2.0 ms (3.3x). WAL needs memory shared between processes, which a node:fs VFS does not have.',
  },
  {
    id: 'sqlite-locking',
    area: 'sqlite',
    spec: 'sqlite.md: "Concurrent access: SQLite handles locking automatically"; the seed\'s sqlite3 commands set no busy timeout.',
    choice:
      'Writers hold {db}.lock (created with O_EXCL, holding pid, host and a nonce; a lock whose pid is dead on this host is broken under {db}.lock.break; a wait past 30 s answers E_CONFLICT; 10 s, the busy timeout, on the posix engine: sqlite-engine). Readers hold it shared for the length of a read: each open file keeps a mark {db}.lock.reader-{pid}-{n} and writes "1" in it, then checks the lock is absent; a writer creates the lock, then waits for marks at "1". A reader that finds the lock taken writes "2", and the next writer lets such readers in first (up to 20 ms). Native sqlite3 locks are read from /proc/locks (Node cannot take POSIX locks): no transaction starts while one commits, no write while one is in a write transaction, no page is overwritten while one reads (up to 2 s), and xCheckReservedLock answers only a native RESERVED lock, so a hot journal is rolled back whenever no writer is alive. A commit that finds the change counter moved since its transaction began, or undone after it, is redone. Reading the log and appending the event it decides is one transaction under the lock.',
    why: 'Pages are written in place, so no read may overlap a commit. A mark created and deleted per read cost ~0.6 ms on the busy ext4 here; rewriting one byte ~6 us. The measured seed pattern (8 writers, no busy timeout) lost 89% of its writes; waiting on a lock loses none (8 processes x 200 bindings, and a reader in another process never sees a commit half-written).',
  },
  {
    id: 'sqlite-engine',
    area: 'sqlite',
    spec: 'sqlite.md: "Concurrent access: SQLite handles locking automatically"; the VM and every subagent write state.db with the sqlite3 CLI at the same time.',
    choice:
      "Three engines. native (the default where node:sqlite exists: Node 24, so npm scripts and the single binary; Node 22.13+): everything in node:sqlite, SQLite's own pager, journal (the same PERSIST, FULL, 4 KiB pages, foreign keys off as in the CLI) and POSIX locks, no lock file; a write is BEGIN IMMEDIATE retried with SQLite's busy-handler pauses and its COMMIT retried holding PENDING, a read is BEGIN + schema read + ROLLBACK retried every 1-5 ms, all up to the busy timeout (10 s, what our subagent instructions give the CLI; PROSE_STATE_BUSY_TIMEOUT_MS), then E_CONFLICT \"database is locked\"; while another process wrote the file within the last second (data_version moved, or SQLITE_BUSY), a write first waits a random 0-100 ms counted from this file object's previous commit; TEXT cells node:sqlite decoded to U+FFFD are read again cast to BLOB. posix (sqlite:posix): SQL on WASM SQLite under SQLite's own POSIX locks, taken by a node:sqlite connection to the same file that never writes (SHARED by reading the schema in a transaction, EXCLUSIVE by BEGIN EXCLUSIVE), tried without blocking every 5-20 ms up to the busy timeout, then the same E_CONFLICT; plus the lock file, so a wasm process of ours stays out. Both declare native-sqlite3-beside. wasm (the default on Node 20, which has no node:sqlite): the lock file alone, a sqlite3's locks read from /proc/locks; it does not declare native-sqlite3-beside. --backend sqlite:native / sqlite:posix / sqlite:wasm or PROSE_STATE_SQLITE_ENGINE pick one; the sqlite3 shim runs on WASM SQL (posix where native would be picked). A WAL file is checkpointed before a posix read and left for rollback mode before a posix or native write; native reads it through its -wal.",
    why: "A sqlite3 beside the wasm engine cannot see our locks: the sqlite-mixed-writers area run on it (capability declared for the test, three runs): all 8 of our writers failed with SQLITE_BUSY beside 8 sqlite3 writers in every run, 2 to 7 acknowledged writes lost per run, integrity_check reporting damaged indexes, sqlite3 readers seeing torn or lost state. native and posix take the same locks; native costs less CPU: 300 one-row commits per engine interleaved, medians of 3, 0.31 ms per commit native vs 0.67 posix (2.2x) and 0.62 wasm, a one-row read 0.03 / 0.18 / 0.11 ms (an earlier run at load 8-9: 0.88 / 1.35 / 1.48 and 0.05 / 0.65 / 0.20); a commit's wall time is bound by its syncs under load. Native used to lose the sqlite3 processes of the mixed-writers area under load (failed 4 of 4 runs at load 20-30, posix 1 of 2): a writer of ours that had just committed tried again at once and took SQLite's lock before the sqlite3 processes sleeping in their busy handler (up to 100 ms between tries, holding nothing we can see) woke. With the pause after a commit while others write, native passed every run at load 9-21 (10 and 16 CPU burners added; sqlite3 INSERTs over 5 s: 0 and 1, the longest 4.9 s and 5.5 s), posix passed at load 13-18 (6 and 10 burners; 2 and 12 over 5 s, longest 7.4 s and 7.0 s) and failed at load 20-21 (3 sqlite3 writers locked out, 25 over 5 s, longest 12.1 s); one run of native without the pause also passed at load 7-16 (4 over 5 s, 5.6 s). The pause costs our own writers when they are the only ones (the concurrency area on native 21.9 s with it, 15.2 s without, posix 16.1 s; one run each, load 7-12) and nothing to a lone writer (the bench). So native is the default; posix stays selectable and is the shim's; SQLite's lock is not a queue, so under enough load a sqlite3 can still wait past its 10 s on either (docs/sqlite.md, Limits).",
  },
  {
    id: 'sqlite-schema-version',
    area: 'sqlite',
    spec: 'sqlite.md: "Flexible schema: add columns and tables as needed"; no version mark.',
    choice:
      'PRAGMA user_version = 1 marks our schema. A file at 0 (made by the sqlite3 CLI, or empty) is adopted on first open: missing tables and the bindings index are created, then it is marked 1; a same-named table lacking a column we use is refused with E_FORMAT. A version above 1 is refused with E_FORMAT. Extra tables and columns (x_ extensions) are left alone.',
    why: 'user_version is the header field SQLite reserves for this; adopting 0 is what lets a VM start a run with the CLI and the toolkit read it.',
  },
  {
    id: 'sqlite-bindings-key',
    area: 'sqlite',
    spec: 'sqlite.md Core Schema: bindings(..., PRIMARY KEY (name, IFNULL(execution_id, -1))), which SQLite refuses ("expressions prohibited in PRIMARY KEY and UNIQUE constraints").',
    choice:
      "A plain bindings table (the seed's columns, including kind) plus CREATE UNIQUE INDEX bindings_name_scope ON bindings(name, IFNULL(execution_id, -1)); writes use INSERT ... ON CONFLICT(name, IFNULL(execution_id, -1)) DO UPDATE, keeping created_at. The seed's INSERT OR REPLACE also upserts on it.",
    why: "The same key the seed meant, in a form SQLite accepts; every other table is the seed's DDL verbatim.",
  },
  {
    id: 'sqlite-execution-rows',
    area: 'sqlite',
    spec: 'sqlite.md: the VM owns the execution table; its metadata keys are parallel_id, branch, strategy, branches ("Parallel Execution"), loop_id, max_iterations, current_iteration, condition ("Loop Tracking"), retry_attempt, max_retries ("Error Handling"). HEAD: events are appended, with status tokens started, completed, joined, iteration, exited, failed, retry.',
    choice:
      "One INSERT per event, never an UPDATE. statement events keep their own status (executing, completed, failed, skipped) and statement_index/statement_text; frame-enter, parallel-start and loop-start are 'started'; a branch carries its status; join 'joined'; iteration 'iteration'; loop exit 'exited'; retry 'retry'; error 'failed' with error_message; an anonymous name 'allocated'. metadata is JSON with the seed's keys (a loop-start row has max_iterations and current_iteration 0, an iteration row current_iteration, a retry row retry_attempt and max_retries, so the seed's json_extract queries find them; keys written before, max, iteration and attempt, are still read) plus reason and \"event\" (the event type), execution_id, block, depth, parent, strategy, branches, count, on_fail, condition, name. parent_id points at the frame-enter row of the frame (or the parallel-start row of a branch). A row without metadata.event (the seed's own INSERTs) reads as a statement event when its status is a statement status, and is otherwise ignored.",
    why: "The seed's queries on metadata keys and parent_id keep working (spec/backends/sqlite/seed-metadata-keys.spec.ts runs them with the real sqlite3 on our file), and the event list is rebuilt exactly (a property test round-trips every event shape).",
  },
  {
    id: 'sqlite-frame-ids',
    area: 'sqlite',
    spec: 'sqlite.md joins bindings.execution_id to execution.id in its scope-resolution CTE, so execution_id would be a row id of every logged statement.',
    choice:
      "bindings.execution_id holds the frame's execution_id (the per-run counter of decision execution-id), kept in the frame-enter row's metadata.execution_id. resolve runs the seed's CTE adapted to walk frame-enter rows through parent_id and match metadata.execution_id; the literal CTE gives a different (wrong) answer on our files, which spec/backends/sqlite/seed-queries-broken.spec.ts shows.",
    why: 'The same execution_id must mean the same frame in every backend and in every location line a subagent reports.',
  },
  {
    id: 'sqlite-imports',
    area: 'sqlite',
    spec: 'sqlite.md: imports(alias PRIMARY KEY, source_url, fetched_at, inputs_schema, outputs_schema); nested runs are not described. filesystem.md (HEAD): imports/{handle}--{slug}/.',
    choice:
      "An import is a nested run at .prose/runs/{id}/imports/{handle}--{slug}/state.db (with program.prose) and a row of the parent's imports table with alias = {handle}--{slug} (decision sql-import-alias), source_url the fetch URL, fetched_at datetime('now'). Its RunRef is {parentRef}/imports/{handle}--{slug}; refs are split at the first \"--\" and every part is checked, so none leaves .prose/runs/. Importing the same {handle}--{slug} twice is E_CONFLICT.",
    why: "One handle may import several slugs, so the alias must be the pair; the directory rule is the filesystem backend's.",
  },
  {
    id: 'sqlite-agent-databases',
    area: 'sqlite',
    spec: "sqlite.md: execution-scope agents in the run's state.db, project scope in .prose/agents.db, user scope in ~/.prose/agents.db; custom scope unstated.",
    choice:
      "Those three, and {projectDir}/{path}/agents.db for custom scope; each agents.db holds only agents and agent_segments. A segment's number is MAX+1 for the agent under the database lock (UNIQUE(agent_name, segment_number) backs it up); appending a segment creates the agents row (memory NULL) if missing. Segment.file is the logical name {agent}-NNN.md.",
    why: "The seed's locations; a custom path follows decision custom-scope with a database in place of the directory.",
  },
  {
    id: 'sqlite-attachments',
    area: 'sqlite',
    spec: 'sqlite.md Large Outputs: write attachments/{binding_name}.md, store the path in attachment_path, "leave value as a summary or null".',
    choice:
      'value holds "Attached value (N bytes) - see attachments/{file}"; attachment_path is relative to the run directory (decision attachment-naming). The file is written atomically, under the lock, before the row that points at it commits; a replaced attachment file is deleted after the commit. An attachment_path outside attachments/ is refused with E_CORRUPT.',
    why: 'A reader of the table alone sees what and where the value is; the order keeps a committed row from pointing at a missing file.',
  },
  {
    id: 'sqlite-text',
    area: 'sqlite',
    spec: 'Values are stored and read back exactly; SQLite TEXT is UTF-8, which cannot hold a lone surrogate.',
    choice:
      "Text is always bound as a parameter and read back from its bytes (a leading U+FEFF is kept); well-formed text is plain UTF-8. Operations never bring a lone surrogate (well-formed-text refuses it first); below them the engine's text codec is WTF-8 (the surrogate's 3-byte form) both ways, so bytes of that form already in a database read back as the surrogate instead of U+FFFD.",
    why: 'One answer for every backend (the refusal) at the contract; a codec that never silently rewrites bytes underneath it.',
  },
  {
    id: 'sqlite-timestamps',
    area: 'sqlite',
    spec: 'sqlite.md: "Timestamps: Use ISO 8601 format (datetime(\'now\'))", which gives YYYY-MM-DD HH:MM:SS.',
    choice:
      "Column defaults and every *_at we write use datetime('now') (UTC, space separator) as the seed does, except run.started_at, which keeps the ISO 8601 instant the run was created with (2026-01-15T14:30:52Z), and agent_segments.timestamp, which keeps the segment's own timestamp.",
    why: "Those two are read back through the API and must round-trip; the rest are the seed's.",
  },
  {
    id: 'sqlite-bad-files',
    area: 'sqlite',
    spec: 'Nothing in the seed on unreadable or foreign databases.',
    choice:
      'Before use every file is checked: no "SQLite format 3" header, a size that is not whole pages, fewer pages than the header says, or PRAGMA quick_check not ok is E_CORRUPT; a newer user_version, or a WAL database with an un-checkpointed -wal file, is E_FORMAT. The file is never written in those cases. A hot journal is not a bad file: it is rolled back under the lock (a live native sqlite3 holding the file past the lock timeout is E_CONFLICT).',
    why: "A write after a bad read would replace the only copy of someone's state.",
  },
  {
    id: 'sqlite-shim',
    area: 'sqlite',
    spec: 'sqlite.md requires the sqlite3 CLI and its commands set no busy timeout.',
    choice:
      "prose-state sqlite3 (and the binary run through a link named sqlite3) takes the CLI's arguments, prints list and -json output as sqlite3 3.40 does and exits with its codes; it writes through the backend's lock and VFS (pages in place behind a rollback journal), waiting up to 10 s (or -cmd \".timeout N\") for the lock instead of failing at once. In -json, REAL values are printed with 3.40's %!.20g digits, reproducing its x87 long-double arithmetic.",
    why: 'A VM without sqlite3 can follow the seed word for word, and parallel subagents using it lose no writes.',
  },
  {
    id: 'sql-import-alias',
    area: 'sqlite',
    spec: 'sqlite.md: imports(alias PRIMARY KEY, source_url, ...) and "Import bindings: Prefix with import alias for scoping: research.findings"; in-context.md: "Importing: @alice/research / Fetching from: https://p.prose.md/@alice/research / Registered as: research".',
    choice:
      "source_url is the fetch URL, https://p.prose.md/@{handle}/{slug}, as the seed shows it. alias departs from the seed: it is the nested run's directory name {handle}--{slug}, not the registered name the program prefixes bindings with (SQLite and PostgreSQL alike; the case imports/sql-import-row checks both columns).",
    why: "createImport carries no registered name, and one run may import the same slug from two handles (imports/distinct-handles-and-slugs), which one alias per slug, the table's primary key, could not hold. Taking the slug as alias would make the second import fail or replace the first.",
  },
];
