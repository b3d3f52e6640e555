import type { DecisionRow } from './decision-row.ts';

/** Choices every backend shares. */
export const CORE_DECISIONS: DecisionRow[] = [
  {
    id: 'attachment-threshold',
    area: 'bindings',
    setting: 'attachmentThresholdBytes',
    spec: 'sqlite.md: "If a binding value exceeds ~100KB, write to attachments/{name}.md"; no version says bytes or characters, 10^5 or 100*1024, > or >=.',
    choice:
      'A value is attached when its UTF-8 encoding is longer than 102,400 bytes (strictly greater). Configurable with --decision attachmentThresholdBytes=N.',
    why: 'Bytes are what a file or a TEXT column holds, so multi-byte text cannot slip past a character count; 100 KiB is the reading of "100KB" a storage layer uses; at the threshold a value still fits.',
  },
  {
    id: 'attachment-naming',
    area: 'bindings',
    spec: 'sqlite.md: attachments/{binding_name}.md; scoped bindings of one name in two frames would share it.',
    choice:
      'attachments/{name}.md at root and attachments/{name}__{execution_id}.md in a frame; attachment_path is relative to the run directory.',
    why: "Mirrors the binding file rule, so recursive frames never overwrite each other's attachment.",
  },
  {
    id: 'anon-numbering',
    area: 'bindings',
    setting: 'anonWidth',
    spec: 'filesystem.md: anon_001, anon_002, ...; "the VM assigns sequential numbers"; nothing past 999, nothing on per-run or per-scope.',
    choice:
      "One counter per run (not per frame), starting at 1, zero-padded to 3 digits and growing past 999 (anon_1000). Allocated by the VM (allocateAnon) and recorded in the run's log, so a restart continues the sequence.",
    why: 'Per-run numbers keep every anonymous file name unique in bindings/ without a scope suffix; growing matches the only rule the seed gives for numbers past 999 (segments).',
  },
  {
    id: 'segment-numbering',
    area: 'agents',
    setting: 'segmentWidth',
    spec: 'filesystem.md: captain-001.md, ...; "If a program exceeds 999 segments, extend to 4 digits: captain-1000.md". Silent on sharing between scopes.',
    choice:
      'Per agent and per scope location, from 001, 3 digits, growing to 4 past 999. An execution-scope agent and a project-scope agent of the same name number independently. Allocation is atomic across processes. The next number is one past the highest present, also after a gap (segments 1 and 3 give 4): counting the segments and adding one would give 3 and overwrite the newest.',
    why: 'Each scope has its own directory (or database), so its own sequence; parallel agents must never get the same number.',
  },
  {
    id: 'segment-timestamp',
    area: 'agents',
    spec: 'filesystem.md / session.md segment files: "timestamp: {ISO8601}"; the profile is unstated.',
    choice:
      'appendSegment takes an optional timestamp, which must be an ISO 8601 date and time with seconds and a zone (Z or +HH:MM, fractions allowed); anything else is E_INVALID_ARGUMENT and nothing is written. Without one the backend stamps UTC to the second (2026-01-15T14:32:15Z). The text is kept exactly as given.',
    why: "The seed names ISO 8601; a free-form timestamp could carry a line break into the segment file's header.",
  },
  {
    id: 'well-formed-text',
    area: 'bindings',
    spec: 'The seeds store values as files and TEXT columns and say nothing of text that is not valid Unicode.',
    choice:
      'Every text argument (values, sources, memory, prompts, summaries, programs, world-model file contents and paths, event texts) must be well-formed Unicode: a lone UTF-16 surrogate is E_INVALID_ARGUMENT and nothing is written. A name holding one (binding, agent, handle, slug, node, block) is E_INVALID_NAME, as any bad name is (names). So no backend ever stores one; the canonicalizer, called directly, refuses such a path with E_FORMAT (canon-lone-surrogates).',
    why: 'UTF-8 cannot hold a lone surrogate; a file would silently read back U+FFFD, so one backend would answer differently from another.',
  },
  {
    id: 'run-id',
    area: 'runs',
    spec: 'filesystem.md: {YYYYMMDD}-{HHMMSS}-{random6}, example 20260115-143052-a7b3c9; alphabet and time zone unstated.',
    choice:
      'UTC date and time, six lowercase hex digits: ^\\d{8}-\\d{6}-[0-9a-f]{6}$, and the digits must be a real instant. createRun refuses an id already taken (E_CONFLICT).',
    why: 'Every example suffix is lowercase hex; one seed example pairs 143052 with 14:30:52Z, so UTC.',
  },
  {
    id: 'execution-id',
    area: 'frames',
    spec: 'in-context.md: "`execution_id` uniquely identifies each invocation"; filesystem.md numbers a recursion result__1, result__2, result__3; sqlite.md\'s Scope Resolution Query joins bindings.execution_id to execution.id, an AUTOINCREMENT row id of every statement; v0 prose.md: starts at 1, increments per block invocation, never reused.',
    choice:
      "A per-run counter of block invocations from 1, never reused (it survives restart); root scope is null (the filesystem writes no suffix). Only the case execution/execution-ids-per-run checks the numbering (and resume's nextExecutionId); every other case uses the ids enterFrame answers, so a backend that numbers frames by its execution-table rows, as sqlite.md does, fails that one case only (selftest mutant execution-id-table-rows).",
    why: 'The seeds require only uniqueness per run, and disagree on numbering; the language spec defines a counter, and a row id would make ids depend on how many statements a backend logs.',
  },
  {
    id: 'recursion-limit',
    area: 'frames',
    setting: 'maxRecursionDepth',
    spec: 'v0 prose.md: max recursion depth defaults to 100, settable per block with (max_depth: N); exceeding it raises RecursionLimitExceeded.',
    choice:
      'The first frame has depth 1; entering a frame deeper than max_depth (default 100) answers E_RECURSION_LIMIT and writes nothing.',
    why: 'depth 1 = first level, as the Call Stack examples show.',
  },
  {
    id: 'scope-resolution',
    area: 'bindings',
    spec: "filesystem.md: {name}__{current}.md, then the parent's, up the call stack, then {name}.md; first match wins.",
    choice:
      "Exactly that chain, following each frame's parent; frames that are not ancestors (siblings, cousins, exited children) are never searched, even when they hold the name.",
    why: 'Walking the chain, not the execution_id order, is what keeps parallel sibling invocations apart.',
  },
  {
    id: 'rebinding',
    area: 'bindings',
    spec: 'v0: let is mutable, const immutable; nothing on rebinding at the same scope otherwise.',
    choice:
      'A binding may be written again at the same (name, scope) unless the stored one is const (E_CONST_REBIND, nothing written). A const in a frame does not stop a same-named binding in another frame or at root.',
    why: 'const is per binding; shadowing in a frame is how recursion works.',
  },
  {
    id: 'roles',
    area: 'roles',
    spec: 'filesystem.md "Who Writes What": state.md by the VM only; bindings by the subagent; memory and segments by the persistent agent; "The VM never holds full binding values". sqlite.md: subagents write ONLY bindings, agents, agent_segments; "The VM does not write subagent outputs". in-context.md: the VM binds values itself ("[Binding] err = {message: ...}" after a caught error, "[Binding] const config = {model: \"opus\"}").',
    choice:
      "Every call names its actor. Execution state (runs, frames, events, anonymous names) is VM-only; a subagent writes only its own binding in its own execution scope and its own agent's memory and segments. The VM may bind values itself (inputs, a caught error, a literal const, an output it computes) with two limits: a value it binds, other than an input, is at most the attachment threshold; and it never replaces a stored binding other than an input (an input may be rebound as an input). Memory and segments are the agent's. A refused call answers E_ROLE and writes nothing.",
    why: 'The seeds show the VM binding small values it holds anyway, so forbidding every non-input write (as before) failed a VM that follows in-context.md. A stored binding does not record who wrote it, so "never overwrites a subagent\'s output" is enforced as "never replaces a stored let, const or output": a new value for a name is a new session\'s output, written by that session.',
  },
  {
    id: 'names',
    area: 'names',
    spec: 'The seeds name files after bindings and agents and say nothing on what a name may hold.',
    choice:
      'Names must be non-empty NFC Unicode of at most 200 UTF-8 bytes, with no / \\\\ NUL, C0 or C1 control characters or U+2028/U+2029 line separators, no "..", no leading "." or white space at either end, no bidirectional marks or controls (U+061C, U+200E/F, U+202A-E, U+2066-9), no lone surrogates, not a Windows device name (CON, NUL, COM1, COM¹, LPT³, CONIN$, ...); binding, agent, handle and slug names (file names as they are) hold no ":" (an NTFS stream, a drive) and do not end in "."; a binding name may not end in "__" and digits; an import handle may not contain "--" or end in "-" (so the first "--" of {handle}--{slug} always ends the handle). Refused with E_INVALID_NAME before anything is written.',
    why: 'Each rule closes a way to escape the run directory, to collide on another file system (NFD twins on macOS, device names and trailing dots on Windows), or to make {name}__{id}.md ambiguous. Names stay case-sensitive, as program identifiers are: on a case-insensitive file system Result and result share one file, which the filesystem backend does not detect.',
  },
  {
    id: 'custom-scope',
    area: 'agents',
    spec: 'filesystem.md: persist: "path" keeps memory at the "Specified path"; gone from the scoping tables at HEAD.',
    choice:
      'A custom path is relative to the project directory: not absolute on any system (/x, \\\\x, C:x, \\\\\\\\server), no ".." or control characters, and not inside .prose/ (the backend\'s own state). It holds {path}/{name}/memory.md like the other scopes.',
    why: 'A path from a program must not write outside the project.',
  },
  {
    id: 'loop-iterations',
    area: 'execution',
    spec: 'v0: the as-i variable counts from 0; narration and SQLite metadata count from 1 ("Iteration 1 of max 5").',
    choice:
      'Recorded iterations count from 1 and go up by one; an iteration past max answers E_LOOP_MAX; a loop without max has no cap.',
    why: "The state records what the narration shows; the 0-based variable is the language's business.",
  },
  {
    id: 'retries',
    area: 'execution',
    spec: 'v0: retry: N means "retry up to N times"; HEAD: N additional attempts. Narration: retry:A/M; SQLite metadata {"attempt":2,"max":3}.',
    choice:
      'attempt is the 1-based number of the retry (the first attempt is not a retry), max is retry: N; attempts go up by one and an attempt past max answers E_RETRY_MAX.',
    why: 'Both readings agree that N counts retries, not tries.',
  },
  {
    id: 'parallel-join',
    area: 'execution',
    spec: 'v0: ("all"|"first"|"any", count: N, on-fail: ...); HEAD: count larger than the branches is an error.',
    choice:
      'A join with strategy all waits for every branch to finish; first and any wait for count (default 1) completed branches or for every branch to finish. A join that must still wait answers E_STATE naming the branches; count above the branch count answers E_STATE at start.',
    why: 'The state layer checks what the VM may record, not how the VM picks a winner.',
  },
  {
    id: 'import-handles',
    area: 'names',
    spec: 'filesystem.md names imported programs like @alice/research (the import registry: research: @alice/research) and lays them out as imports/{handle}--{slug}/; it does not say whether the @ and the / belong to the handle.',
    choice:
      'A handle is a name (names): @ is an ordinary character and is kept (handle @alice, slug research: imports/@alice--research/); / is a path separator and is refused (E_INVALID_NAME), so @alice/research is passed as handle @alice and slug research.',
    why: "The directory name must be one path segment; keeping @ keeps the registry's spelling visible in the tree.",
  },
  {
    id: 'anon-bindings',
    area: 'bindings',
    spec: 'filesystem.md stores anonymous session results as bindings/anon_001.md, ...; it gives no kind and says nothing of anonymous results inside a block.',
    choice:
      'Once allocated, an anonymous name is an ordinary binding name: bound with whatever kind the call gives, at root as bindings/anon_001.md, in a frame as bindings/anon_001__{execution_id}.md like any scoped binding. allocateAnon itself writes no binding, only the counter (an anon event).',
    why: 'One file rule for every binding; the per-run counter already keeps anonymous names apart, so no special case is needed.',
  },
];
