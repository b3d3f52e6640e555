import fc from 'fast-check';
import type { NarrationEvent } from '../../src/transcript/narration-event.ts';

/** Any string at all: lone surrogates, newlines, quotes, `---`, markers. */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '---',
    '\n---\n',
    '"quoted"',
    '[Binding] let x = "forged"',
    '1→ x ✓',
    '\r\n',
    '\u2028\u2029\u0085',
    '\ud800',
    'é'.normalize('NFD'),
    ' (execution_id: 3)',
  ),
);
/** Names as checkName admits them: no control characters, no slashes, not blank at either end. */
export const anyName = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((s) => s.trim() === s && !/[\u0000-\u001f\u007f/\\]/.test(s) && !s.includes('..') && !s.startsWith('.')),
);
const id = fc.integer({ min: 1, max: 50 });
const idString = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);

const event: fc.Arbitrary<NarrationEvent> = fc.oneof(
  fc
    .record(
      {
        kind: fc.constant('bind' as const),
        name: anyName,
        bindingKind: fc.constantFrom('let', 'const', 'input', 'output' as const),
        value: anyText,
      },
      { requiredKeys: ['kind', 'name', 'bindingKind', 'value'] },
    )
    .chain((b) =>
      fc
        .record({ executionId: fc.option(id, { nil: null }), source: anyText }, { requiredKeys: [] })
        .map((x) => ({ ...b, ...x })),
    ),
  fc
    .record({
      kind: fc.constant('statement' as const),
      index: fc.nat(999),
      text: anyText,
      status: fc.constantFrom('executing', 'completed', 'failed', 'skipped' as const),
    })
    .chain((s) =>
      fc
        .record({ executionId: fc.option(id, { nil: null }), error: anyText }, { requiredKeys: [] })
        .map((x) => ({ ...s, ...x })),
    ),
  fc.record({ kind: fc.constant('memory' as const), agent: anyName, memory: anyText }),
  fc.record({
    kind: fc.constant('segment' as const),
    agent: anyName,
    number: fc.integer({ min: 1, max: 2000 }),
    timestamp: fc.constant('2026-01-15T14:30:52Z'),
    prompt: anyText,
    summary: anyText,
  }),
  fc.record({
    kind: fc.constant('run-start' as const),
    runId: fc.constant('20260115-143052-a7b3c9'),
    startedAt: fc.constant('2026-01-15T14:30:52Z'),
    program: anyText,
  }),
  fc
    .record({
      kind: fc.constant('frame-enter' as const),
      executionId: id,
      block: anyName,
      parent: id,
      depth: fc.integer({ min: 2, max: 9 }),
    })
    .chain((f) =>
      fc
        .record({ args: fc.dictionary(anyName, anyText, { maxKeys: 3 }) }, { requiredKeys: [] })
        .map((x) => ({ ...f, ...x })),
    ),
  fc.record(
    { kind: fc.constant('loop-start' as const), id: idString, max: fc.integer({ min: 1, max: 9 }), condition: anyText },
    { requiredKeys: ['kind', 'id'] },
  ),
  fc.record({
    kind: fc.constant('parallel-start' as const),
    id: idString,
    strategy: fc.constantFrom('all', 'first', 'any' as const),
    branches: fc.uniqueArray(anyName, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({
    kind: fc.constant('retry' as const),
    index: fc.nat(99),
    attempt: fc.integer({ min: 1, max: 5 }),
    max: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ kind: fc.constant('anon' as const), name: fc.stringMatching(/^anon_[0-9]{3,4}$/) }),
  fc.record({
    kind: fc.constant('frame-exit' as const),
    executionId: id,
    status: fc.constantFrom('completed', 'failed' as const),
  }),
  fc.record({
    kind: fc.constant('branch' as const),
    id: idString,
    branch: anyName,
    status: fc.constantFrom('executing', 'completed', 'failed' as const),
  }),
  fc.record({
    kind: fc.constant('parallel-join' as const),
    id: idString,
    branches: fc.constant([] as { name: string }[]),
  }),
  fc.record(
    {
      kind: fc.constant('loop-iteration' as const),
      id: idString,
      iteration: fc.integer({ min: 1, max: 9 }),
      max: fc.integer({ min: 1, max: 9 }),
    },
    { requiredKeys: ['kind', 'id', 'iteration'] },
  ),
  fc.record({
    kind: fc.constant('loop-exit' as const),
    id: idString,
    reason: fc.constantFrom('condition', 'max', 'break' as const),
  }),
  fc.record({ kind: fc.constant('error' as const), index: fc.nat(99), message: anyText }),
  fc.record({
    kind: fc.constant('run-status' as const),
    status: fc.constantFrom('running', 'completed', 'failed', 'interrupted' as const),
    runId: fc.constant('20260115-143052-a7b3c9'),
  }),
  fc.record({ kind: fc.constant('run-switch' as const), runId: fc.constant('20260115-150000-0b1c2d') }),
  fc.record({
    kind: fc.constant('wm-version' as const),
    node: anyName,
    address: fc.stringMatching(/^sha256:[0-9a-f]{64}$/),
    bytes: fc.base64String(),
  }),
  fc.record({
    kind: fc.constant('wm-publish' as const),
    node: anyName,
    address: fc.stringMatching(/^sha256:[0-9a-f]{64}$/),
  }),
  fc.record({ kind: fc.constant('wm-workspace' as const), node: anyName, bytes: fc.base64String() }),
  fc.record({
    kind: fc.constant('envelope' as const),
    compiledIntentJson: anyText,
    rootSource: anyText,
    sources: fc.dictionary(anyName, anyText, { maxKeys: 3 }),
  }),
  fc.record({ kind: fc.constant('receipt' as const), node: anyName, receipt: anyText }),
);

/** Events shaped as the store writes them (every id explicit), in any order. */
// fast-check builds null-prototype records; the JSON trip gives plain objects (it keeps lone surrogates).
export const storeEvents = fc
  .array(event, { maxLength: 8 })
  .map((es) => JSON.parse(JSON.stringify(es)) as NarrationEvent[]);
