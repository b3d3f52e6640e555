import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventToRow, rowToEvent } from '../../../src/backends/sqlite/event-rows.ts';
import type { ExecutionEvent } from '../../../src/core/model.ts';

const str = fc.string({ unit: 'grapheme', maxLength: 12 });
const int = fc.integer({ min: 0, max: 10_000 });
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const clean = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const event: fc.Arbitrary<ExecutionEvent> = fc
  .oneof(
    fc.record({
      type: fc.constant('statement'),
      index: int,
      text: str,
      status: fc.constantFrom('executing', 'completed', 'failed', 'skipped'),
      executionId: opt(fc.option(int, { nil: null })),
      error: opt(str),
    }),
    fc.record({
      type: fc.constant('frame-enter'),
      executionId: int,
      block: str,
      parent: fc.option(int, { nil: null }),
      depth: int,
      args: opt(fc.dictionary(str, str, { noNullPrototype: true })),
    }),
    fc.record({ type: fc.constant('frame-exit'), executionId: int, status: fc.constantFrom('completed', 'failed') }),
    fc.record({
      type: fc.constant('parallel-start'),
      id: str,
      strategy: fc.constantFrom('all', 'first', 'any'),
      branches: fc.array(str),
      count: opt(int),
      onFail: opt(fc.constantFrom('fail-fast', 'continue', 'ignore')),
    }),
    fc.record({
      type: fc.constant('branch'),
      id: str,
      branch: str,
      status: fc.constantFrom('executing', 'completed', 'failed'),
    }),
    fc.record({ type: fc.constant('parallel-join'), id: str }),
    fc.record({ type: fc.constant('loop-start'), id: str, max: opt(int), condition: opt(str) }),
    fc.record({ type: fc.constant('loop-iteration'), id: str, iteration: int }),
    fc.record({ type: fc.constant('loop-exit'), id: str, reason: fc.constantFrom('condition', 'max', 'break') }),
    fc.record({ type: fc.constant('retry'), index: int, attempt: int, max: int, error: opt(str) }),
    fc.record({ type: fc.constant('error'), index: int, message: str }),
    fc.record({ type: fc.constant('anon'), name: str }),
  )
  .map((e) => clean(e) as ExecutionEvent);

test('every execution event survives its round trip through an execution row (columns plus metadata JSON)', () => {
  fc.assert(
    fc.property(event, (e) => {
      const r = eventToRow(e);
      const back = rowToEvent({
        statement_index: r.statement_index,
        statement_text: r.statement_text,
        status: r.status,
        error_message: r.error_message,
        metadata: JSON.stringify(r.metadata),
      });
      assert.equal(back, e);
    }),
    { numRuns: 2000 },
  );
});

test("a row the seed's own INSERT wrote (no metadata) reads as a statement event; other foreign rows are skipped", () => {
  assert.equal(
    rowToEvent({
      statement_index: 3,
      statement_text: 'session "x"',
      status: 'executing',
      error_message: null,
      metadata: null,
    }),
    { type: 'statement', index: 3, text: 'session "x"', status: 'executing' },
  );
  assert.is(
    rowToEvent({
      statement_index: 5,
      statement_text: 'parallel:',
      status: 'pending',
      error_message: null,
      metadata: '{"parallel_id":"p1"}',
    }),
    undefined,
  );
  assert.is(
    rowToEvent({
      statement_index: null,
      statement_text: null,
      status: 'executing',
      error_message: null,
      metadata: 'not json',
    }),
    undefined,
  );
});

test.run();
