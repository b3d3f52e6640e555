import type { DecisionRow } from './decision-row.ts';

/** How the filesystem backend writes what the seed layout leaves open. */
export const FILESYSTEM_DECISIONS: DecisionRow[] = [
  {
    id: 'state-md-event-log',
    area: 'filesystem',
    spec: 'filesystem.md: state.md shows the annotated trace, ~5-10 lines ahead, the Index and the Call Stack; "contains everything needed to understand where execution stopped". It gives no machine-readable form of loops, retries or parallel branches.',
    choice:
      'state.md keeps the seed sections (header, Execution Trace, Active Constructs, Index, Call Stack) and adds a header line `status:` and a final `## Event Log` section, one JSON event per line. The seed sections are rendered from the log after every VM write; the backend reads the log back.',
    why: 'Rendering from one log means the human sections can never disagree with what a resume reads; the seed gives no program text to show "lines ahead" from, so the trace shows the statements recorded.',
  },
  {
    id: 'seed-state-md',
    area: 'filesystem',
    spec: 'filesystem.md "Resuming Execution": read state.md "to find current position", load all bindings from bindings/, continue "from the marked position". Its state.md example has no run status, no statement numbers, no parent column in the Call Stack and no machine-readable log.',
    choice:
      'A state.md without our `status:` header line and `## Event Log` is read as the seed writes it: the run is `running`; each trace line annotated `# <-- EXECUTING`, `# <-- RETRYING (attempt n/m)`, `# (complete)` or `# --> path` is a statement numbered by its line in the Execution Trace block (`[not yet entered]` and `[...next...]` lines are not reached yet); `### Parallel (X)` and `### Loop (X)` of Active Constructs are the parallel or loop `X` with their branches and iteration; each Call Stack row is an open frame whose parent is the row one level shallower. The next VM write rewrites the file in our format, the derived events first. Ours without its log is refused as cut short.',
    why: 'A run a VM left behind following the seed must resume, not be refused; the trace line is the one number the example fixes (its Active Constructs cite trace lines), and depth is the only link between Call Stack rows. Telling ours apart by its `status:` line keeps a truncated file of ours an error instead of a shorter history.',
  },
  {
    id: 'state-md-call-stack-parent',
    area: 'filesystem',
    spec: 'filesystem.md Call Stack table: execution_id | block | depth | status.',
    choice:
      'A fifth column `parent` ((root) for depth 1). The stack lists executing frames innermost first: the first is `executing`, the rest `waiting`.',
    why: 'Scope resolution follows parents, and parallel invocations at one depth have different parents; depth alone cannot rebuild the chain.',
  },
  {
    id: 'state-md-index-timing',
    area: 'filesystem',
    spec: 'filesystem.md: subagents write bindings; only the VM writes state.md, and updates it after each statement (VM Update Protocol).',
    choice:
      'The Index is refreshed whenever the VM writes state.md (an event, a frame, a status). A binding a subagent wrote since the VM last wrote is on disk but not yet indexed; verify reports that as a warning, not an error.',
    why: "Keeps the seed's rule that subagents never touch state.md.",
  },
  {
    id: 'fs-attachment-header',
    area: 'filesystem',
    spec: 'filesystem.md has no attachments: "bindings/{name}.md" holds the actual value below "---". sqlite.md "Large Outputs": "Write content to attachments/{binding_name}.md", "Store the path in the attachment_path column", "Leave value as a summary or null".',
    choice:
      "Our extension of the directory layout, not the seed's: an attached binding file carries an extra header line `attachment: attachments/{file}` and a one-line summary as its value; the attachment file holds the value exactly. The attachment is written before the binding file, so a binding never points at a missing attachment.",
    why: "Gives the filesystem layout the same large-value rule as the SQL backends, in the seed's own file format.",
  },
  {
    id: 'binding-file-value',
    area: 'filesystem',
    spec: 'filesystem.md: "--- separator, Actual value below".',
    choice:
      'The value is every byte after the blank line that follows `---`, with no newline added or removed; the source block uses a fence longer than any backtick run in the source.',
    why: 'Values holding `---` lines, fences, CRLF or trailing newlines must read back exactly.',
  },
  {
    id: 'segment-file-prompt',
    area: 'filesystem',
    spec: 'filesystem.md segment files: `prompt: "Review the research findings"`.',
    choice:
      'The prompt is written as a JSON string literal (quotes, backslashes and newlines escaped); the Summary section holds the summary text verbatim to the end of the file.',
    why: "The seed's quoting reads as JSON and survives prompts with quotes or several lines.",
  },
  {
    id: 'memory-file',
    area: 'filesystem',
    spec: 'filesystem.md: agents/{name}/memory.md, "# Agent Memory: {name}" with Current Understanding, Decisions Made, Open Concerns.',
    choice:
      'writeMemory stores the text the agent gives, byte for byte; its structure is checked by verify and the session checker as warnings, not enforced on write.',
    why: "The memory is the agent's own compaction; refusing a write would lose it.",
  },
];
