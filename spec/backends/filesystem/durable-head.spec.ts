import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyReceiptChain } from '../../../src/canon/index.ts';
import { tempEnv } from '../../helpers/temp-env.ts';
import { openCurrent } from './_current-run.ts';

// Issue 35: in the current edition a commit chains to the last receipt of the node's durable ledger, which is read
// from its end only (lastLedgerLine); the whole ledger is read only when the run's own last receipt is not that
// head: another run's receipt came after it, or a kill between the run's append and the durable one lost it there.

const VM = { role: 'vm' } as const;
const LEDGER = 'state/world-model/n/receipts.jsonl';

async function commit(b: Awaited<ReturnType<typeof openCurrent>>, run: string, i: number): Promise<void> {
  const files = { 'truth.json': JSON.stringify({ i }) };
  const r = await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files }, VM);
  assert.is(r.status, 'rendered');
}

const durable = (root: string) => readFileSync(join(root, LEDGER), 'utf8').trimEnd().split('\n');

test('two runs committing one node in turn chain to each other through the durable ledger', async () => {
  const env = tempEnv();
  const b = await openCurrent(env.projectDir, env.homeDir, env.root);
  try {
    const a = (await b.call('createRun', { program: '# a\n' }, VM)).run;
    const c = (await b.call('createRun', { program: '# c\n' }, VM)).run;
    for (let i = 0; i < 6; i++) await commit(b, i % 2 === 0 ? a : c, i);
    const chain = durable(env.projectDir).map((l) => JSON.parse(l));
    assert.is(chain.length, 6);
    assert.equal(verifyReceiptChain(chain), []);
  } finally {
    await b.close();
    env.cleanup();
  }
});

test("a run's last receipt lost from the durable ledger (a kill between the appends) is appended before the next", async () => {
  const env = tempEnv();
  const b = await openCurrent(env.projectDir, env.homeDir, env.root);
  try {
    const run = (await b.call('createRun', { program: '# a\n' }, VM)).run;
    await commit(b, run, 0);
    await commit(b, run, 1);
    const lines = durable(env.projectDir);
    writeFileSync(join(env.projectDir, LEDGER), `${lines[0]}\n`); // the second receipt reached the run's ledger only
    await commit(b, run, 2);
    const chain = durable(env.projectDir);
    assert.is(chain.length, 3);
    assert.is(chain[1], lines[1], 'caught up with the run ledger first');
    assert.equal(verifyReceiptChain(chain.map((l) => JSON.parse(l))), []);
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
