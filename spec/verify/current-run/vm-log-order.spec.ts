import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readVmLog } from '../../../src/verify/current-run/read-vm-log.ts';
import { splitLines } from '../../../src/verify/current-run/text-lines.ts';
import { checkOrder } from '../../../src/verify/current-run/vm-log-order.ts';

const HEAD = '# run:20260317-143052-a7b3c9 x\nroot: x\n\n';
const order = (body: string) =>
  checkOrder(readVmLog(splitLines(Buffer.from(HEAD + body)).lines).markers).map((p) => p.line);

test("fs's example log, a delegation and a test run are in order", () => {
  assert.equal(
    order(
      '1→ [input] question ✓\n2→ researcher ✓ rendered\n3→ ∥start critic,fact-checker\n3a→ critic ✓\n3b→ fact-checker ✓\n3→ ∥done\n4→ synthesizer ✓ rendered\n---end 2026-03-17T14:35:22Z\n',
    ),
    [],
  );
  assert.equal(
    order(
      '1→ server ⇒ synthesizer (delegate: req-001)\n1→ server ⇒ validator (delegate: req-001)\n1→   synthesizer ✓\n1→   validator ✓\n1→ server ⟳ (resumed)\n1→ server ✓ rendered\n---end 2026-03-17T14:35:22Z\n',
    ),
    [],
  );
  assert.equal(
    order(
      '1→ a ✓ rendered\n2→ [eval] one ✓\n2→ [eval] two ✗\n---test FAIL (1/2 assertions)\n---end 2026-03-17T14:35:22Z\n',
    ),
    [],
  );
});

test('branches may end in any order, each once', () => {
  assert.equal(order('1→ ∥start a,b\n1b→ b ✓\n1a→ a ✓\n1→ ∥done\n'), []);
  assert.equal(order('1→ ∥start a,b\n1a→ a ✓\n1a→ a ✓\n1→ ∥done\n'), [6, 7]);
});

test('a gap, a first step past 1, a branch outside its group, a group never closed, lines after ---end', () => {
  assert.equal(order('1→ a ✓ rendered\n3→ b ✓ rendered\n'), [5]);
  assert.equal(order('2→ a ✓ rendered\n'), [4]);
  assert.equal(order('1→ a ✓ rendered\n1a→ a ✓\n'), [5]);
  assert.equal(order('1→ ∥start a,b\n1a→ a ✓\n---end 2026-03-17T14:35:22Z\n'), [4]);
  assert.equal(order('1→ a ✓ rendered\n---end 2026-03-17T14:35:22Z\n2→ b ✓ rendered\n'), [6]);
  assert.equal(order('1→ a ✓ rendered\n1→ a ✓ rendered\n'), [5]);
  assert.equal(order('1→ a ⟳ (resumed)\n'), [4]);
});

test.run();
