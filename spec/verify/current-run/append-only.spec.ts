import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { firstDifference } from '../../../src/verify/current-run/append-only.ts';
import type { Finding } from '../../../src/verify/finding.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { captureIo } from '../run-dir/capture-io.ts';
import { FIXTURES } from '../run-dir/fixture-copy.ts';
import { copyCurrent, RUN_ID, type CurrentCopy } from './current-copy.ts';

const LOG = 'vm.log.md';

/** OLD: a snapshot of the valid root taken before `c` (the run going on) was changed. */
function withSnapshot(f: (c: CurrentCopy, old: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const c = copyCurrent();
    const old = mkdtempSync(join(tmpdir(), 'prose-since-'));
    try {
      cpSync(c.root, old, { recursive: true });
      await f(c, old);
    } finally {
      c.cleanup();
      rmSync(old, { recursive: true, force: true });
    }
  };
}

const oldRun = (old: string) => join(old, 'runs', RUN_ID);
const appendRules = (fs: Finding[]) => fs.filter((f) => f.rule.startsWith('append.'));

test(
  'appending to vm.log.md and the ledgers is no finding',
  withSnapshot(async (c, old) => {
    c.edit(LOG, /---end .*\n/, '');
    writeFileSync(join(old, 'runs', RUN_ID, LOG), readFileSync(join(c.run, LOG)));
    appendFileSync(join(c.run, LOG), '---end 2026-03-17T14:35:22Z\n');
    const r = await verifyPath(c.run, { since: oldRun(old) });
    assert.equal(r.findings, []);
  }),
);

test(
  'a rewritten vm.log.md line is append.changed, naming the file and the line',
  withSnapshot(async (c, old) => {
    c.edit(LOG, 'scout ✓ rendered', 'scout ✓');
    const { findings } = await verifyPath(c.run, { since: oldRun(old) });
    const hits = appendRules(findings);
    assert.equal(
      hits.map((f) => `${f.rule} ${f.file}:${f.line} ${f.severity}`),
      ['append.changed vm.log.md:5 error'],
    );
    assert.match(hits[0]!.message, /line 5 was "2→ scout ✓ rendered" in OLD and is "2→ scout ✓" now/);
  }),
);

test(
  'a line inserted in the middle is a change, and the lines it shifted are counted',
  withSnapshot(async (c, old) => {
    c.edit(LOG, '2→ scout', '2→ [eval] scout ok ✓\n2→ scout');
    const hit = appendRules((await verifyPath(c.run, { since: oldRun(old) })).findings)[0]!;
    assert.is(hit.rule, 'append.changed');
    assert.match(hit.message, /\(2 later lines of OLD differ too\)/);
  }),
);

test(
  'a receipt ledger cut short, or removed, is append.removed',
  withSnapshot(async (c, old) => {
    c.write('receipts/alerts.jsonl', '');
    c.remove('receipts/scout.jsonl');
    const hits = appendRules((await verifyPath(c.run, { since: oldRun(old) })).findings);
    assert.equal(
      hits.map((f) => `${f.rule} ${f.file}`),
      ['append.removed receipts/alerts.jsonl', 'append.removed receipts/scout.jsonl'],
    );
  }),
);

test(
  "from a root: the durable receipts.jsonl is compared too, and findings name the root's paths",
  withSnapshot(async (c, old) => {
    const durable = join(c.root, 'state/world-model/alerts/receipts.jsonl');
    writeFileSync(durable, readFileSync(durable, 'utf8').replace('"status":"skipped"', '"status":"failed"'));
    const hits = appendRules((await verifyPath(c.root, { since: old })).findings);
    assert.equal(
      hits.map((f) => `${f.rule} ${f.file}:${f.line}`),
      ['append.changed state/world-model/alerts/receipts.jsonl:1'],
    );
  }),
);

test('a torn last line of OLD completed later is no change; one rewritten is', () => {
  const old = Buffer.from('a\nb');
  assert.is(firstDifference(old, Buffer.from('a\nbc\nd\n')), undefined);
  assert.is(firstDifference(old, Buffer.from('a\nx\n'))?.rule, 'append.changed');
  assert.is(firstDifference(Buffer.from('a\nb\n'), Buffer.from('a\nbc\n'))?.rule, 'append.changed');
  assert.is(firstDifference(Buffer.from('a\nb\n'), Buffer.from('a\n'))?.rule, 'append.removed');
});

test(
  'verify --since: exit 1 on a change, a usage error for a v0 tree, and an OLD with nothing to compare is named',
  withSnapshot(async (c, old) => {
    c.edit(LOG, 'alerts ∅ skipped', 'alerts ∅ skipped ');
    const io = captureIo(c.run);
    assert.is(await verifyCommand.run(['.', '--since', oldRun(old)], io), 1);
    assert.match(io.out(), /^vm\.log\.md:6: error append\.changed: /m);
    const v0 = captureIo(join(FIXTURES, 'valid'));
    assert.is(await verifyCommand.run(['.', '--since', '.'], v0), 2);
    assert.match(v0.err(), /--since compares current-edition snapshots/);
    const empty = await verifyPath(c.run, { since: join(old, 'state') });
    assert.equal(
      appendRules(empty.findings).map((f) => `${f.rule} ${f.severity}`),
      ['append.snapshot warning'],
    );
  }),
);

test(
  "OLD's vm.log.md a link or a FIFO: named as not compared (append.snapshot), never followed or opened",
  withSnapshot(async (c, old) => {
    const log = join(oldRun(old), LOG);
    rmSync(log);
    symlinkSync('/dev/zero', log);
    const linked = appendRules((await verifyPath(c.run, { since: oldRun(old) })).findings);
    assert.equal(
      linked.map((f) => `${f.rule} ${f.file}`),
      ['append.snapshot vm.log.md'],
    );
    rmSync(log);
    execFileSync('mkfifo', [log]);
    const fifo = appendRules((await verifyPath(c.run, { since: oldRun(old) })).findings);
    assert.equal(
      fifo.map((f) => `${f.rule} ${f.file}`),
      ['append.snapshot vm.log.md'],
    );
  }),
);

test.run();
