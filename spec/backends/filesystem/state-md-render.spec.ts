import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseStateMd, renderStateMd, StateMdRenderer } from '../../../src/backends/filesystem/state-md.ts';
import { DOC, INDEX } from './fixtures/state-md-doc.ts';

// Issue 35: state.md is rendered by a renderer that extends its text by the events appended since its last render.
// The golden file is what the renderer before it (a walk over every event per render) wrote for the same run.

const GOLDEN = readFileSync(new URL('./fixtures/state-md-render.golden.md', import.meta.url), 'utf8');
const prefix = (n: number) => ({ ...DOC, events: DOC.events.slice(0, n) });

test('a render is byte for byte what state.md was before the renderer kept its text', () => {
  assert.is(renderStateMd(DOC, INDEX), GOLDEN);
  assert.equal(parseStateMd(GOLDEN, 'state.md').events, DOC.events);
});

test('one renderer fed the log as it grows renders each prefix as a fresh render does', () => {
  const r = new StateMdRenderer();
  for (let n = 0; n <= DOC.events.length; n++) assert.is(r.render(prefix(n), INDEX), renderStateMd(prefix(n), INDEX));
  assert.is(r.render(DOC, INDEX), GOLDEN, 'rendering the same log again adds nothing');
});

test('a log that does not extend the last one (parsed afresh, cut, or reordered) is rendered from the start', () => {
  const r = new StateMdRenderer();
  r.render(DOC, INDEX);
  const parsed = parseStateMd(GOLDEN, 'state.md');
  assert.is(r.render(parsed, INDEX), GOLDEN, 'equal events that are other objects');
  assert.is(r.render(prefix(4), INDEX), renderStateMd(prefix(4), INDEX), 'a shorter log');
  const swapped = { ...DOC, events: [DOC.events[1]!, DOC.events[0]!, ...DOC.events.slice(2)] };
  assert.is(r.render(swapped, INDEX), renderStateMd(swapped, INDEX), 'the same events in another order');
});

test.run();
