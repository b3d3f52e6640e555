import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendLedger, lastLedgerLine, ledgerLines, readLedger } from '../../../src/backends/filesystem/ledger-file.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// Issue 35: a receipt ledger grows by an append of one line, not a rewrite of the whole file; a crash can then tear
// the last line, which happens only at a 4 KiB block boundary (decision crash-state-model), and such a line was
// never acknowledged. Any other unterminated ledger was cut or edited by hand and stays E_CORRUPT.

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ProseError ? err.code : String(err);
  }
};

test('a receipt is appended to the same file: the inode stays, the earlier bytes stay', () => {
  const env = tempEnv();
  const file = join(env.root, 'receipts', 'n.jsonl');
  appendLedger(file, 'receipts/n.jsonl', '{"i":1}');
  const first = statSync(file).ino;
  appendLedger(file, 'receipts/n.jsonl', '{"i":2}');
  assert.is(statSync(file).ino, first, 'not replaced by a rewritten copy');
  assert.is(readFileSync(file, 'utf8'), '{"i":1}\n{"i":2}\n');
  assert.equal(readLedger(file, 'receipts/n.jsonl'), ['{"i":1}', '{"i":2}']);
  env.cleanup();
});

test('a last line torn at a block boundary is left out on read and dropped by the next append', () => {
  const env = tempEnv();
  const file = join(env.root, 'n.jsonl');
  const whole = `{"pad":"${'x'.repeat(3000)}"}\n`;
  const torn = `{"pad":"${'y'.repeat(4096 - whole.length - 8)}`; // ends the file at byte 4096, no newline
  writeFileSync(file, whole + torn);
  assert.is(statSync(file).size, 4096);
  assert.equal(ledgerLines(readFileSync(file), 'n.jsonl'), [whole.slice(0, -1)]);
  appendLedger(file, 'n.jsonl', '{"i":2}');
  assert.is(readFileSync(file, 'utf8'), `${whole}{"i":2}\n`);
  env.cleanup();
});

test('a ledger cut anywhere else is E_CORRUPT, on read and on append, and left as it is', () => {
  const env = tempEnv();
  const file = join(env.root, 'n.jsonl');
  writeFileSync(file, '{"i":1}\n{"i":');
  assert.is(
    codeOf(() => readLedger(file, 'n.jsonl')),
    'E_CORRUPT',
  );
  assert.is(
    codeOf(() => appendLedger(file, 'n.jsonl', '{"i":3}')),
    'E_CORRUPT',
  );
  assert.is(readFileSync(file, 'utf8'), '{"i":1}\n{"i":');
  writeFileSync(file, '');
  assert.equal(readLedger(file, 'n.jsonl'), [], 'an empty durable ledger holds no receipt');
  assert.is(
    codeOf(() => readLedger(file, 'n.jsonl', true)),
    'E_CORRUPT',
    'an empty run ledger is not one the backend wrote',
  );
  env.cleanup();
});

test('the last receipt read from the end only is the last of the whole read, for every shape of ledger', () => {
  const env = tempEnv();
  const file = join(env.root, 'n.jsonl');
  const line = (i: number, len: number) => `{"i":${i},"pad":"${'p'.repeat(len)}"}`;
  const shapes: Record<string, string> = {
    'one line': `${line(1, 10)}\n`,
    'many short lines': Array.from({ length: 500 }, (_, i) => `${line(i, 30)}\n`).join(''),
    'lines longer than a read': `${line(1, 40_000)}\n${line(2, 20_000)}\n`,
    'a last line ending where a read starts': `${line(1, 100)}\n${line(2, 16 * 1024 - 15)}\n`,
    'non-ASCII text': `${line(1, 5)}\n{"note":"é ✓ 𝄞"}\n`,
  };
  const whole = `{"pad":"${'x'.repeat(3000)}"}\n`;
  shapes['a torn last line at a block boundary'] = whole + `{"pad":"${'y'.repeat(4096 - whole.length - 8)}`;
  for (const [name, text] of Object.entries(shapes)) {
    writeFileSync(file, text);
    assert.is(lastLedgerLine(file, 'n.jsonl'), readLedger(file, 'n.jsonl').at(-1), name);
  }
  writeFileSync(file, `${line(1, 10)}\n{"i":`);
  assert.is(
    codeOf(() => lastLedgerLine(file, 'n.jsonl')),
    'E_CORRUPT',
    'a cut ledger',
  );
  writeFileSync(file, '');
  assert.is(lastLedgerLine(file, 'n.jsonl'), undefined, 'an empty durable ledger');
  assert.is(
    codeOf(() => lastLedgerLine(file, 'n.jsonl', true)),
    'E_CORRUPT',
    'an empty run ledger',
  );
  assert.is(lastLedgerLine(join(env.root, 'none.jsonl'), 'none.jsonl'), undefined, 'no ledger');
  env.cleanup();
});

test.run();
