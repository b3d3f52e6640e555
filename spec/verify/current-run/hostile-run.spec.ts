import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyCurrent } from './current-copy.ts';

const CASES: [string, (run: string) => void, string][] = [
  ['vm.log.md is a directory', (r) => (rmSync(join(r, 'vm.log.md')), mkdirSync(join(r, 'vm.log.md'))), 'vmlog.file'],
  [
    'receipts/ is a file',
    (r) => (rmSync(join(r, 'receipts'), { recursive: true }), writeFileSync(join(r, 'receipts'), 'x')),
    'wm.receipts-file',
  ],
  [
    'a receipts file is a directory',
    (r) => (rmSync(join(r, 'receipts/scout.jsonl')), mkdirSync(join(r, 'receipts/scout.jsonl'))),
    'wm.receipts-file',
  ],
  [
    'compiled-intent.json is a directory',
    (r) => (rmSync(join(r, 'compiled-intent.json')), mkdirSync(join(r, 'compiled-intent.json'))),
    'run.envelope',
  ],
  [
    'a receipts line of random bytes',
    (r) => writeFileSync(join(r, 'receipts/alerts.jsonl'), Buffer.from([0xfe, 0x00, 0x7b, 0x0a])),
    'wm.receipts-file',
  ],
  [
    '.version of binary garbage',
    (r) => writeFileSync(join(r, 'world-model/scout/.version'), Buffer.from([0xff, 0xfe, 0x00])),
    'wm.version-format',
  ],
  [
    'a caller input that is not UTF-8',
    (r) => writeFileSync(join(r, 'world-model/caller/topic.md'), Buffer.from([0xff, 0x0a])),
    'wm.caller',
  ],
  [
    'world-model/ is a file',
    (r) => (rmSync(join(r, 'world-model'), { recursive: true }), writeFileSync(join(r, 'world-model'), '')),
    'wm.version-missing',
  ],
];

for (const [what, breakIt, rule] of CASES) {
  test(`${what}: a ${rule} finding, never a throw`, async () => {
    const c = copyCurrent();
    try {
      breakIt(c.run);
      const { findings } = await verifyPath(c.run, { kind: 'current-run' });
      assert.ok(
        findings.some((f) => f.rule === rule),
        JSON.stringify(findings, null, 1),
      );
    } finally {
      c.cleanup();
    }
  });
}

test('a missing directory gives findings, not a throw', async () => {
  const { findings } = await verifyPath('/nonexistent/runs/20260317-143052-a7b3c9', { kind: 'current-run' });
  assert.ok(findings.some((f) => f.rule === 'vmlog.file'));
});

test.run();
