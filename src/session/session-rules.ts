import type { Finding } from '../verify/finding.ts';
import { finding as ruleFinding } from '../verify/kit/finding-sink.ts';
import type { RuleTable } from '../verify/kit/rule-table.ts';

/**
 * Every rule the subagent-output checker reports, with its severity and what it enforces (docs/session-protocol.md
 * renders this table). Specs assert on these ids, never on message text.
 */
export const SESSION_RULES = {
  'message.binding-missing': {
    severity: 'error',
    enforces: 'session.md 7.1: the message starts with "Binding written: NAME"',
  },
  'message.location-missing': { severity: 'error', enforces: 'session.md 7.1/7.4: each block has a "Location:" line' },
  'message.summary-missing': { severity: 'error', enforces: 'session.md 7.1: "Summary: 1-2 sentences"' },
  'message.summary-length': {
    severity: 'error',
    enforces: 'pointers, not values: the Summary is at most summaryMaxChars characters',
  },
  'message.segment-missing': {
    severity: 'error',
    enforces: 'session.md 7.4: a memory block names its "Segment: NAME-NNN.md"',
  },
  'message.repeated-line': { severity: 'error', enforces: 'each line appears once per block; one binding per message' },
  'message.malformed-line': { severity: 'error', enforces: 'a confirmation key in the wrong case or without a value' },
  'message.order': {
    severity: 'error',
    enforces: 'Location/Execution ID/Summary follow "Binding written:"; Location/Segment follow "Memory updated:"',
  },
  'message.location-form': {
    severity: 'error',
    enforces: "the Location is a path, or the seed's database coordinates for this backend",
  },
  'message.location-outside-run': {
    severity: 'error',
    enforces: 'a binding location lies inside the run being checked',
  },
  'message.location-edition': {
    severity: 'error',
    enforces:
      'current sqlite.md "Responsibility Separation": a current-edition run is at <openprose-root>/runs/{id}/, not v0\'s ' +
      '.prose/runs/{id}/',
  },
  'message.location-mismatch': {
    severity: 'error',
    enforces: 'the Location is the one the name, scope and execution id give',
  },
  'message.execution-id': {
    severity: 'error',
    enforces: 'filesystem.md: inside a block invocation the message carries "Execution ID: N" matching the location',
  },
  'message.value-echo': {
    severity: 'error',
    enforces: 'session.md 7.2/7.3: the message does not carry the binding value',
  },
  'message.extra-text': {
    severity: 'warning',
    enforces: 'session.md 7.3: text besides the confirmation and signals is ignored by the VM',
  },
  'message.not-pointer': {
    severity: 'error',
    enforces: 'session.md 7.3: the full output returned instead of a confirmation',
  },
  'message.unchecked': {
    severity: 'warning',
    enforces: 'the state behind a location could not be read (no connection given)',
  },
  'binding.missing': { severity: 'error', enforces: 'the binding exists exactly where the Location says' },
  'binding.format': {
    severity: 'error',
    enforces: 'session.md 6.1: the binding file follows the seed format (or the row is well formed)',
  },
  'binding.scope': {
    severity: 'error',
    enforces: 'the file header / row names the same binding and execution_id as the message',
  },
  'binding.attachment': {
    severity: 'error',
    enforces:
      'sqlite.md "Large Outputs": a value over the threshold is written to attachments/{name}.md (our file and row ' +
      "layouts), the binding names that file, and the row's value is a summary or NULL; a value at or under it stays " +
      'in place',
  },
  'binding.edition-column': {
    severity: 'error',
    enforces:
      'sqlite.md and postgres.md "Core Schema": the bindings column of the run\'s edition (kind v0, binding current)',
  },
  'binding.kind': { severity: 'error', enforces: 'kind is the one the VM asked for (let, const, output, input)' },
  'memory.missing': { severity: 'error', enforces: 'session.md 6.3: a persistent agent updates its memory' },
  'memory.heading': { severity: 'error', enforces: 'session.md 6.3: "# Agent Memory: NAME"' },
  'memory.section': {
    severity: 'error',
    enforces: 'session.md 6.3: Current Understanding, Decisions Made and Open Concerns, once each',
  },
  'memory.decision-format': {
    severity: 'error',
    enforces: 'session.md 6.3: decisions are "- {date}: {decision} — {rationale}"',
  },
  'memory.decision-rationale': {
    severity: 'warning',
    enforces: 'session.md 3.2: decisions with rationale, "Approved because X"',
  },
  'memory.specificity': {
    severity: 'warning',
    enforces: 'session.md 3.1-3.6: a segment summary in memory names a location, number or identifier',
  },
  'segment.missing': { severity: 'error', enforces: 'session.md 6.3: a persistent agent writes its segment record' },
  'segment.format': {
    severity: 'error',
    enforces: 'session.md 6.3: "# Segment NNN", timestamp:, prompt: "...", ## Summary',
  },
  'segment.timestamp': { severity: 'error', enforces: 'session.md 6.3: timestamp is ISO 8601' },
  'segment.prompt': { severity: 'error', enforces: 'session.md 6.3: prompt: "{the prompt}" as a quoted string' },
  'segment.summary-field': {
    severity: 'error',
    enforces: 'session.md 6.3: Reviewed, Found, Decided, Next, once each, in order',
  },
  'segment.number-mismatch': { severity: 'error', enforces: 'the heading number is the file name number' },
  'segment.number-skip': {
    severity: 'error',
    enforces: 'filesystem.md: segments are numbered 001, 002, ... with no gap',
  },
  'segment.number-repeat': {
    severity: 'error',
    enforces: 'a segment number is used once; the one returned is the newest',
  },
  'segment.specificity': { severity: 'warning', enforces: 'session.md 3.1-3.6: compaction is not summarization' },
  'signal.decision': { severity: 'error', enforces: 'session.md 5.1: DECISION: X with RATIONALE: Y' },
  'signal.revision': {
    severity: 'error',
    enforces: 'session.md 5.1: DECISION: Request revision, ISSUES: numbered items, REQUIRED CHANGES:',
  },
  'signal.concern': { severity: 'error', enforces: 'session.md 5.2: CONCERN:, SEVERITY: low|medium|high, TRACKING:' },
  'signal.segment-complete': {
    severity: 'error',
    enforces: 'session.md 5.3: SEGMENT COMPLETE, MEMORY UPDATES: items, READY FOR:',
  },
  'signal.orphan': { severity: 'error', enforces: 'a signal field outside the signal it belongs to' },
} as const satisfies RuleTable;

export type SessionRule = keyof typeof SESSION_RULES;

/** Where a finding points: a file and line, or a table and row. */
export type Where = Pick<Finding, 'file' | 'line' | 'table' | 'row'>;

/** A finding of a session rule: the verify kit's one finding(), bound to SESSION_RULES. */
export function finding(rule: SessionRule, message: string, where: Where, hint?: string): Finding {
  return ruleFinding(SESSION_RULES, rule, message, {
    file: where.file,
    line: where.line,
    table: where.table,
    row: where.row,
    hint,
  });
}
