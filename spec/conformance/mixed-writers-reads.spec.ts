import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { judgeRead } from '../../src/conformance/run-mixed-writers.ts';

// What a sqlite3 reader of the mixed-writers area printed: quick_check, count(*), then the names, one per line.
const out = (...lines: string[]) => `${lines.join('\n')}\n`;
const before = new Set(['w0_0', 'c1_0']);

test('a read holding every write acknowledged before it, and maybe later ones, is consistent', () => {
  assert.is(judgeRead(0, out('ok', '3', 'w0_0', 'c1_0', 'w0_1'), '', before), undefined);
});

test('each way a reader can see a torn, lost or corrupt state is named', () => {
  assert.match(
    judgeRead(0, out('ok', '1', 'w0_0'), '', before)!,
    /c1_0, acknowledged before the read began, is missing/,
  );
  assert.match(
    judgeRead(0, out('*** in database main ***', 'On tree page 22 cell 9: Rowid 82 out of order'), '', before)!,
    /quick_check says/,
  );
  assert.match(judgeRead(0, out('ok', '3', 'w0_0', 'c1_0'), '', before)!, /count\(\*\) 3 but 2 names/);
  assert.match(judgeRead(0, out('ok', '3', 'w0_0', 'c1_0', 'c1_0'), '', before)!, /listed twice/);
  assert.match(judgeRead(0, out('ok', '3', 'w0_0', 'c1_0', 'garbage'), '', before)!, /no writer wrote/);
  assert.match(judgeRead(11, '', 'Error: database disk image is malformed', before)!, /exit 11: .*malformed/);
});

test.run();
