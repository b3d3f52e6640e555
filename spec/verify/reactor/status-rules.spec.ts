import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

// filesystem.md: a skipped receipt copies the fingerprints forward; a failed one moves none.
test('a skipped receipt whose fingerprints moved is reactor.status.copy-forward', () =>
  withCopy('masked-relay', async (dir) => {
    const list = readReceipts(dir);
    // A skipped receipt that is its node's last, so re-stamping it breaks no later link.
    const at = list.findLastIndex(
      (r, k) => r.status === 'skipped' && !list.slice(k + 1).some((x) => x.node === r.node),
    );
    assert.ok(at >= 0);
    list[at].fingerprints = { ...list[at].fingerprints, extra: 'moved' };
    restamp(list[at]);
    writeReceipts(dir, list);
    const found = await verify(dir);
    assert.ok(rules(found).includes('reactor.status.copy-forward'), JSON.stringify(rules(found)));
  }));

test.run();
