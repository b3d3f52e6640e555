import type { RuleTable } from '../kit/rule-table.ts';

/**
 * The rules the transcript verifier applies, with the seed text each enforces and when it fires (docs/in-context.md
 * lists them). frame.unclosed and parallel.unjoined are errors once the program completed and warnings before; the
 * parse.* severities are the parser's (the same as here).
 */
export const TRANSCRIPT_RULES = {
  'parse.unknown-marker': {
    severity: 'warning',
    enforces: 'in-context.md "The Narration Protocol": the marker table',
    when: 'a `[Word]` marker that is not in the marker table (warning)',
  },
  'parse.malformed': {
    severity: 'error',
    enforces: '"Requires consistent narration throughout execution"',
    when: 'a known marker whose line cannot be read (bad parameters, unterminated string, unclosed `[`)',
  },
  'parse.truncated': {
    severity: 'error',
    enforces: '"the VM can recover its execution state by reading its own prior messages"',
    when: 'the text ends in the middle of a marker line',
  },
  'parse.nesting': {
    severity: 'error',
    enforces: '"Each `[Frame+]` must have a matching `[Frame-]`"',
    when:
      'a `[Frame-]`/`#ID done` for a frame that is not open or that closes a frame with an inner frame still open; ' +
      'a join, iteration or exit outside any parallel or loop',
  },
  'frame.unclosed': {
    severity: 'error',
    enforces: '"Each `[Frame+]` must have a matching `[Frame-]`"',
    when: 'a frame still open at the end (error once the program completed, else warning)',
  },
  'frame.depth': {
    severity: 'error',
    enforces: '"`depth` shows call stack depth (1 = first level)"',
    when: "a frame whose depth is not its parent's depth + 1 (1 at the first level)",
  },
  'frame.block': {
    severity: 'error',
    enforces: '"[Frame-] Exiting block: process (execution_id: 1)"',
    when: 'a `[Frame-]` naming another block than its `[Frame+]`',
  },
  'exec-id.duplicate': {
    severity: 'error',
    enforces: '"`execution_id` uniquely identifies each invocation"',
    when: 'an execution_id entered twice in one run',
  },
  'exec-id.sequence': {
    severity: 'warning',
    enforces: 'prose.md: execution_id starts at 1 and increments per invocation',
    when: 'an execution_id that is not the previous largest + 1 (warning)',
  },
  'exec-id.parent': {
    severity: 'error',
    enforces: '"Nested frames show `Parent: execution_id N` for the scope chain"',
    when: 'a `Parent: execution_id N` naming a frame never entered or already exited',
  },
  'exec-id.unknown': {
    severity: 'error',
    enforces: '"Bindings include `(execution_id: N)` to indicate scope"',
    when: 'a binding or statement scoped to an execution_id never entered',
  },
  'loop.sequence': {
    severity: 'error',
    enforces: '"[Loop] Iteration 1 of max 5", "Iteration 2 of max 5"',
    when: 'loop iterations that do not start at 1 and go up by one',
  },
  'loop.max': {
    severity: 'error',
    enforces: '"Loop State: Counter, max, condition"; "(max: 5)"',
    when: "an iteration past the loop's max, or a max that changes between lines",
  },
  'retry.max': {
    severity: 'error',
    enforces: '"Error State: Exception, retry count | Retry 2 of 3"',
    when: 'a retry past its max (`Retry 4 of 3`)',
  },
  'retry.sequence': {
    severity: 'error',
    enforces: '"Retry 2 of 3, error: "timeout""',
    when: 'retries of one statement that do not go 1, 2, 3',
  },
  'parallel.branch': {
    severity: 'error',
    enforces: '"[Parallel] Entering parallel block (3 branches, strategy: all)" followed by "- security: pending"',
    when: 'a branch status or result for a branch the block did not enter',
  },
  'parallel.join': {
    severity: 'error',
    enforces:
      '"[Parallel] Parallel complete:" lists every branch of "Entering parallel block (3 branches, strategy: all)"',
    when: 'a join that leaves a branch it entered unsettled (strategy all), or too few completed branches (first/any with count)',
  },
  'parallel.unjoined': {
    severity: 'error',
    enforces: '"Parallel: Entering, branch status, joining"',
    when: 'a parallel block never joined (error once the program completed, else warning)',
  },
  'binding.read-before-bind': {
    severity: 'error',
    enforces:
      '"Variable Bindings: Name -> value mapping (with execution_id)"; "[Binding] Resolving \'config\': found in execution_id 41"',
    when: 'a name used as context or resolved before any binding of it is visible from that scope',
  },
  'binding.scope': {
    severity: 'warning',
    enforces: '"When inside a block invocation, always include the execution_id"',
    when: 'a verbose `[Binding]` inside an open frame without `(execution_id: N)` (warning; the compact dialect scopes implicitly)',
  },
  'binding.const-rebind': {
    severity: 'error',
    enforces: '"[Binding] const config = {model: "opus"} (immutable)"',
    when: 'a const bound again in the same scope',
  },
  'callstack.mismatch': {
    severity: 'warning',
    enforces: '"[CallStack] Current stack (depth: 3)"',
    when: 'a `[CallStack]` that lists a frame already exited, or omits an open one (warning)',
  },
  'edition.v0-marker': {
    severity: 'warning',
    enforces: 'current in-context.md "The Narration Protocol": "Use **compact markers**"; "Core Markers"',
    when:
      'judged by the current edition: a verbose line (or `OpenProse Program Start`) for a construct the current text ' +
      'gives a compact marker (warning)',
  },
} as const satisfies RuleTable;

export type TranscriptRuleId = keyof typeof TRANSCRIPT_RULES;
