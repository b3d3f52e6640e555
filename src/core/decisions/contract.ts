import type { DecisionRow } from './decision-row.ts';

/**
 * The operation contract where the seed is silent: argument checking, event rules, result shapes and orders. Cases
 * cite these rows by id (`decision check-args`); the rules themselves live in src/core/check-args.ts and
 * src/core/execution-log.ts, and docs/implementing.md walks an implementer through them.
 */
export const CONTRACT_DECISIONS: DecisionRow[] = [
  {
    id: 'check-args',
    area: 'contract',
    spec: 'The seed names the values a VM stores, not how a wrong call is answered.',
    choice:
      'Every argument has a type (conformance/schema/protocol.schema.json $defs/args): a missing required argument, an unknown argument, a wrong type, a number that is not a safe integer (|n| <= 2^53 - 1; true/false are not integers) or a string holding a lone UTF-16 surrogate is E_INVALID_ARGUMENT naming the field, before anything is written. A bad name (binding, agent, handle, slug, node, block) is E_INVALID_NAME instead (decision names). An event has exactly the fields of its type ($defs/event): an unknown field, a missing one, a wrong type or a value outside its enum is E_INVALID_ARGUMENT with the field event.FIELD; a negative statement index is E_INVALID_ARGUMENT.',
    why: "A wrong call is the caller's mistake whatever the state; checking shape first makes the answer the same on every backend and leaves nothing half written.",
  },
  {
    id: 'execution-events',
    area: 'contract',
    spec: 'filesystem.md shows statements, parallel blocks, loops, retries and the call stack in state.md; sqlite.md and postgres.md an execution table. No version says which sequences are legal.',
    choice:
      "Events are checked against the state the run's log rebuilds; a well-shaped event that does not fit it is E_STATE: frame-exit of an unknown or exited frame; parallel-start with no branches, a branch named twice, or count outside 1..branches; branch or parallel-join of a parallel never started or already joined; branch of an unknown branch or one already completed/failed; parallel-join while branches it waits for are open (parallel-join decides which); loop-iteration/loop-exit of a loop never started or already exited; loop-start max below 1; loop-iteration not exactly the previous + 1; retry attempt not exactly the previous + 1. Starting a parallel id twice, or a loop id still running, is E_CONFLICT. An iteration past max is E_LOOP_MAX, an attempt past max E_RETRY_MAX (checked before the +1 rule). frame-enter, frame-exit and anon events are not recorded with recordEvent (E_INVALID_ARGUMENT): enterFrame, exitFrame and allocateAnon write them. statement and error events always fit.",
    why: "The log alone rebuilds resume state, so it must never hold a sequence resume cannot explain; a shape error is the caller's (E_INVALID_ARGUMENT), a sequence error is the run's (E_STATE).",
  },
  {
    id: 'run-statuses',
    area: 'contract',
    spec: 'filesystem.md and sqlite.md show a run status (running, completed, failed); interrupted appears in the VM text.',
    choice:
      'A run status is one of running, completed, failed, interrupted; createRun starts it running; setRunStatus may set any of the four at any time (no transition is refused); anything else is E_INVALID_ARGUMENT.',
    why: 'The VM decides when a run ends; the store records what it is told.',
  },
  {
    id: 'resume-position',
    area: 'contract',
    spec: 'filesystem.md "Resuming Execution": continue from the position marked # <-- EXECUTING.',
    choice:
      "resume().position is the statement (index, text, status) recorded most recently with status executing that no later event for the same index has moved; when none is executing, the statement recorded last; null when no statement was recorded. A statement event for an index replaces that index's earlier one.",
    why: 'The executing marker is where work was in flight; a completed statement recorded after it (a parallel branch) must not move it.',
  },
  {
    id: 'result-orders',
    area: 'contract',
    spec: 'The seed lists bindings and frames without an order.',
    choice:
      "listBindings and resume().bindings are sorted by name (UTF-16 code units, as JavaScript compares strings), then root (executionId null) before frames, frames by executionId ascending. resume().callStack holds the frames still executing, deepest first; frames of equal depth (siblings) by executionId descending, so the most recent is first. listSegments is in number order; listReceipts is one node's chain in append order, or every node in UTF-8 byte order of its name, each in append order (wm-list-order).",
    why: 'A fixed order lets a case compare lists whole and a resume read the innermost frame first.',
  },
  {
    id: 'world-model-files',
    area: 'contract',
    spec: "The reference world model stores a node's files under artifact paths (canon.md); nothing says how a bad path in a call is answered.",
    choice:
      'A files key of commitWorldModel or writeWorkspace is normalized as canon.md says (\\ to /, empty and . segments dropped, a leading / stripped); a key with a .. segment, one that normalizes to nothing, two keys normalizing to one path, a key holding a lone surrogate, NUL or a control character (U+0000-U+001F, U+007F), a file named .version, or a file that is also the directory of another (a and a/b) is E_INVALID_ARGUMENT naming the file (location.field files["KEY"]). The same holds for writeEnvelope sources. File contents are strings stored as their UTF-8 bytes.',
    why: 'In a call the path is an argument the caller got wrong (E_INVALID_ARGUMENT); E_FORMAT is for bytes already stored or handed to the canonicalizer directly (parseArtifact, canonicalize).',
  },
];
