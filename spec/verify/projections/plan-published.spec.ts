import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { NodeLedger } from '../../../src/verify/kit/check-ledger.ts';
import { describeChange, planPublished } from '../../../src/verify/projections/index.ts';

const rendered = (atomic: string): NodeLedger => ({ count: 1, lastAtomic: atomic, rendered: [{ index: 0, atomic }] });
/** A node whose only receipt failed: nothing published. */
const failedOnly: NodeLedger = { count: 1, rendered: [] };

test('a NULL pointer is an update, a pointer of a node that never rendered a delete', () => {
  const plan = planPublished({
    ledgers: new Map([
      ['a', rendered('sha256:a')],
      ['f', failedOnly],
    ]),
    broken: new Set(),
    published: new Map([
      ['a', null],
      ['f', 'sha256:x'],
    ]),
  });
  assert.equal(plan.changes, [
    { op: 'update', node: 'a', from: null, to: 'sha256:a' },
    { op: 'delete', node: 'f', from: 'sha256:x' },
  ]);
  assert.is(
    describeChange(plan.changes[0]!),
    "world_model_published says NULL but the ledger's last non-failed @atomic is sha256:a",
  );
  assert.is(
    describeChange(plan.changes[1]!),
    'world_model_published says sha256:x but the ledger has no rendered receipt of the node',
  );
});

test('nothing is derived from a chain that does not read back, has errors, or names a version not stored', () => {
  const plan = planPublished({
    ledgers: new Map<string, NodeLedger | null>([
      ['unread', null],
      ['broken', rendered('sha256:b')],
      ['lost', rendered('sha256:gone')],
      ['ok', rendered('sha256:ok')],
    ]),
    broken: new Set(['broken']),
    published: new Map(),
    stored: (_node, version) => version !== 'sha256:gone',
  });
  assert.equal(plan.changes, [{ op: 'insert', node: 'ok', to: 'sha256:ok' }]);
  assert.equal(
    plan.held.map((h) => h.node),
    ['broken', 'lost', 'unread'],
  );
  assert.match(plan.held.find((h) => h.node === 'lost')!.why, /sha256:gone, is not stored/);
});

test.run();
