/** The rules the transcript verifier applies, with the seed text each enforces (rendered into docs/in-context.md). */
export interface TranscriptRule { id: string; checks: string; seed: string }

export const TRANSCRIPT_RULES: readonly TranscriptRule[] = [
  { id: 'parse.unknown-marker', checks: 'a `[Word]` marker that is not in the marker table (warning)', seed: 'in-context.md "The Narration Protocol": the marker table' },
  { id: 'parse.malformed', checks: 'a known marker whose line cannot be read (bad parameters, unterminated string, unclosed `[`)', seed: '"Requires consistent narration throughout execution"' },
  { id: 'parse.truncated', checks: 'the text ends in the middle of a marker line', seed: '"the VM can recover its execution state by reading its own prior messages"' },
  { id: 'parse.nesting', checks: 'a `[Frame-]`/`#ID done` for a frame that is not open or that closes a frame with an inner frame still open; a join, iteration or exit outside any parallel or loop', seed: '"Each `[Frame+]` must have a matching `[Frame-]`"' },
  { id: 'frame.unclosed', checks: 'a frame still open at the end (error once the program completed, else warning)', seed: '"Each `[Frame+]` must have a matching `[Frame-]`"' },
  { id: 'frame.depth', checks: 'a frame whose depth is not its parent\'s depth + 1 (1 at the first level)', seed: '"`depth` shows call stack depth (1 = first level)"' },
  { id: 'frame.block', checks: 'a `[Frame-]` naming another block than its `[Frame+]`', seed: '"[Frame-] Exiting block: process (execution_id: 1)"' },
  { id: 'exec-id.duplicate', checks: 'an execution_id entered twice in one run', seed: '"`execution_id` uniquely identifies each invocation"' },
  { id: 'exec-id.sequence', checks: 'an execution_id that is not the previous largest + 1 (warning)', seed: 'prose.md: execution_id starts at 1 and increments per invocation' },
  { id: 'exec-id.parent', checks: 'a `Parent: execution_id N` naming a frame never entered or already exited', seed: '"Nested frames show `Parent: execution_id N` for the scope chain"' },
  { id: 'exec-id.unknown', checks: 'a binding or statement scoped to an execution_id never entered', seed: '"Bindings include `(execution_id: N)` to indicate scope"' },
  { id: 'loop.sequence', checks: 'loop iterations that do not start at 1 and go up by one', seed: '"[Loop] Iteration 1 of max 5", "Iteration 2 of max 5"' },
  { id: 'loop.max', checks: 'an iteration past the loop\'s max, or a max that changes between lines', seed: '"Loop State: Counter, max, condition"; "(max: 5)"' },
  { id: 'retry.max', checks: 'a retry past its max (`Retry 4 of 3`)', seed: '"Error State: Exception, retry count | Retry 2 of 3"' },
  { id: 'retry.sequence', checks: 'retries of one statement that do not go 1, 2, 3', seed: '"Retry 2 of 3, error: "timeout""' },
  { id: 'parallel.branch', checks: 'a branch status or result for a branch the block did not enter', seed: '"[Parallel] Entering parallel block (3 branches, strategy: all)" followed by "- security: pending"' },
  { id: 'parallel.join', checks: 'a join that leaves a branch it entered unsettled (strategy all), or too few completed branches (first/any with count)', seed: '"[Parallel] Parallel complete:" lists every branch of "Entering parallel block (3 branches, strategy: all)"' },
  { id: 'parallel.unjoined', checks: 'a parallel block never joined (error once the program completed, else warning)', seed: '"Parallel: Entering, branch status, joining"' },
  { id: 'binding.read-before-bind', checks: 'a name used as context or resolved before any binding of it is visible from that scope', seed: '"Variable Bindings: Name -> value mapping (with execution_id)"; "[Binding] Resolving \'config\': found in execution_id 41"' },
  { id: 'binding.scope', checks: 'a verbose `[Binding]` inside an open frame without `(execution_id: N)` (warning; the compact dialect scopes implicitly)', seed: '"When inside a block invocation, always include the execution_id"' },
  { id: 'binding.const-rebind', checks: 'a const bound again in the same scope', seed: '"[Binding] const config = {model: "opus"} (immutable)"' },
  { id: 'callstack.mismatch', checks: 'a `[CallStack]` that lists a frame already exited, or omits an open one (warning)', seed: '"[CallStack] Current stack (depth: 3)"' },
];
