import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Slots, type UnitKind } from '../../src/conformance/slots.ts';

// The runner's slots (test --jobs): which unit gets in when. `entered` lists units in the order they got slots.
function harness(size: number) {
  const slots = new Slots(size);
  const entered: string[] = [];
  const ask = (name: string, n: number, kind: UnitKind) => void slots.take(n, kind).then(() => entered.push(name));
  const settle = () => new Promise((r) => setImmediate(r));
  return { slots, entered, ask, settle };
}

test('units get slots in the order they asked while enough are free; a bigger one is owed the next free slots', async () => {
  const { slots, entered, ask, settle } = harness(2);
  ask('a', 1, 'in-process');
  ask('b', 2, 'in-process');
  ask('c', 1, 'in-process');
  await settle();
  assert.equal(entered, ['a']);
  slots.give(1, 'in-process');
  await settle();
  assert.equal(entered, ['a', 'b']);
  slots.give(2, 'in-process');
  await settle();
  assert.equal(entered, ['a', 'b', 'c']);
});

test('timed and in-process units never run together; one held back by its kind lets a case-worker unit pass', async () => {
  const { slots, entered, ask, settle } = harness(3);
  ask('crash', 1, 'timed');
  ask('probe', 1, 'in-process');
  ask('computing', 1, 'elsewhere');
  await settle();
  assert.equal(entered, ['crash', 'computing']);
  slots.give(1, 'timed');
  await settle();
  assert.equal(entered, ['crash', 'computing', 'probe']);
});

test('while announced case-worker units are still to start, timed units leave them one slot', async () => {
  const { slots, entered, ask, settle } = harness(2);
  slots.announceElsewhere();
  slots.announceElsewhere();
  ask('crash-1', 1, 'timed');
  ask('crash-2', 1, 'timed');
  ask('computing-1', 1, 'elsewhere');
  ask('computing-2', 1, 'elsewhere');
  await settle();
  assert.equal(entered, ['crash-1', 'computing-1']);
  slots.give(1, 'elsewhere'); // computing-2 is still to start: crash-2 waits, computing-2 takes the slot
  await settle();
  assert.equal(entered, ['crash-1', 'computing-1', 'computing-2']);
  slots.give(1, 'elsewhere'); // every announced unit has started: timed units may take every slot again
  await settle();
  assert.equal(entered, ['crash-1', 'computing-1', 'computing-2', 'crash-2']);
});

test('a unit that takes every slot waits past announced case-worker units, which pass it', async () => {
  const { slots, entered, ask, settle } = harness(2);
  slots.announceElsewhere();
  ask('mixed-writers', 2, 'timed');
  ask('computing', 1, 'elsewhere');
  await settle();
  assert.equal(entered, ['computing']);
  slots.give(1, 'elsewhere');
  await settle();
  assert.equal(entered, ['computing', 'mixed-writers']);
});

test('two half-slot units (concurrency cases) share one slot', async () => {
  const { slots, entered, ask, settle } = harness(2);
  slots.announceElsewhere();
  ask('writers-1', 0.5, 'timed');
  ask('writers-2', 0.5, 'timed');
  ask('crash', 1, 'timed');
  ask('computing', 1, 'elsewhere');
  await settle();
  assert.equal(entered, ['writers-1', 'writers-2', 'computing']);
});

test('with one slot every unit runs alone, in the order asked', async () => {
  const { slots, entered, ask, settle } = harness(1);
  ask('a', 1, 'timed');
  ask('b', 1, 'in-process');
  ask('c', 1, 'timed');
  for (const [i, kind] of (['timed', 'in-process'] as const).entries()) {
    await settle();
    assert.is(entered.length, i + 1);
    slots.give(1, kind);
  }
  await settle();
  assert.equal(entered, ['a', 'b', 'c']);
});

test.run();
