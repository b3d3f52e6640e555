import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { receiptHash } from '../../src/canon/index.ts';
import type { Finding } from '../../src/verify/finding.ts';
import { worldModelVerifier } from '../../src/verify/world-model/index.ts';
import { fsRun } from './_fs.ts';

type Lines = Record<string, unknown>[];
const readLines = (f: string): Lines =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const writeLines = (f: string, ls: Lines) => writeFileSync(f, ls.map((l) => JSON.stringify(l)).join('\n') + '\n');
/** Re-stamps every hash and prev forward, as a forger would (sorted keys so lines stay canonical). */
function restamp(ls: Lines): Lines {
  let prev: unknown = null;
  return ls.map((l) => {
    const out = JSON.parse(JSON.stringify({ ...l, prev })) as Record<string, unknown>;
    out.content_hash = receiptHash(out);
    prev = out.content_hash;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  });
}

/**
 * Each tampering of a good run dir, and the rule (with where) that must catch it. A render that moved nothing and a
 * failed receipt without failure_reason are not here: the one ledger checker accepts them in every directory shape,
 * as the reference writes both (decision reactor-status-rules; spec/verify/ledger/same-findings.spec.ts).
 */
const CASES: { name: string; rule: string; tamper(dir: string): void; where?: Partial<Finding> }[] = [
  {
    name: 'a published file edited',
    rule: 'wm.version-hash',
    tamper: (d) => writeFileSync(join(d, 'world-model/n/truth.json'), '{"v":9}'),
    where: { node: 'n', file: 'world-model/n' },
  },
  {
    name: 'a file added to the published dir',
    rule: 'wm.version-hash',
    tamper: (d) => writeFileSync(join(d, 'world-model/n/extra.md'), 'x'),
  },
  {
    name: '.version without its newline',
    rule: 'wm.version-format',
    tamper: (d) =>
      writeFileSync(join(d, 'world-model/n/.version'), readFileSync(join(d, 'world-model/n/.version'), 'utf8').trim()),
  },
  { name: '.version removed', rule: 'wm.version-missing', tamper: (d) => rmSync(join(d, 'world-model/n/.version')) },
  {
    name: 'the pointer rolled back to an older stored version (files too)',
    rule: 'wm.published-match',
    where: { node: 'n' },
    tamper: (d) => {
      writeFileSync(join(d, 'world-model/n/truth.json'), '{"v":1}');
      writeFileSync(
        join(d, 'world-model/n/.version'),
        'sha256:29dde7b1bc3c48f07f87341c3c47fbd60eba5ff415c2c8db7a7dbd3f79ec3958\n',
      );
    },
  },
  {
    name: 'a receipt field edited, stale hash kept',
    rule: 'wm.receipt.hash',
    where: { receipt: 1, line: 2, file: 'receipts/n.jsonl' },
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      ls[1]!.contract_fingerprint = 'forged';
      writeLines(f, ls);
    },
  },
  {
    name: 'a middle receipt deleted',
    rule: 'wm.chain.prev',
    where: { receipt: 1 },
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      ls.splice(1, 1);
      writeLines(f, ls);
    },
  },
  {
    name: 'a receipt moved to another node file',
    rule: 'wm.chain.node',
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      writeLines(join(d, 'receipts/m.jsonl'), restamp([ls[0]!]));
    },
  },
  {
    name: 'a skipped receipt that moved the fingerprints, re-stamped',
    rule: 'wm.status.copy-forward',
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      (ls[1]!.fingerprints as Record<string, string>)['@atomic'] = 'sha256:' + 'a'.repeat(64);
      writeLines(f, restamp(ls));
    },
  },
  {
    name: 'a skipped receipt with a diff',
    rule: 'wm.receipt.skipped',
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      ls[1]!.semantic_diff = { x: 1 };
      writeLines(f, restamp(ls));
    },
  },
  {
    name: "an extra key in an envelope (a newer runtime's, decision receipt-forward-compat)",
    rule: 'wm.receipt.unknown-key',
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      ls[0]!.version = 'x';
      writeLines(f, restamp(ls));
    },
    where: { severity: 'warning' },
  },
  {
    name: 'a missing key in an envelope',
    rule: 'wm.receipt.keys',
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      delete ls[0]!.input_fingerprints;
      writeLines(f, restamp(ls));
    },
    where: { severity: 'error' },
  },
  {
    name: 'a torn last line',
    rule: 'wm.receipts-file',
    tamper: (d) => appendFileSync(join(d, 'receipts/n.jsonl'), '{"content_hash":"sha'),
  },
  {
    name: 'a line that is not canonical JSON',
    rule: 'wm.receipts-canonical',
    tamper: (d) => {
      const f = join(d, 'receipts/n.jsonl');
      const ls = readLines(f);
      writeFileSync(f, ls.map((l) => JSON.stringify(l, null, 1).replace(/\n/g, '')).join('\n') + '\n');
    },
  },
  {
    name: 'a stored version edited',
    rule: 'wm.bin-hash',
    tamper: (d) => {
      const v = join(d, 'state/world-model/n/versions');
      const f = join(v, readdirSync(v)[0]!);
      const b = readFileSync(f);
      b[b.length - 1] ^= 1;
      writeFileSync(f, b);
    },
  },
  {
    name: 'a stored version renamed',
    rule: 'wm.bin-name',
    tamper: (d) => {
      const v = join(d, 'state/world-model/n/versions');
      const n = readdirSync(v)[0]!;
      renameSync(join(v, n), join(v, n.replace('.bin', '.old')));
    },
  },
  {
    name: 'a stored version truncated and renamed to its new hash',
    rule: 'wm.bin-parse',
    tamper: (d) => {
      const v = join(d, 'state/world-model/n/versions');
      writeFileSync(join(v, 'sha256_a4fbb9afa14f21fd41b40d8356044393c2748c2f3a953cf0a1f381fab26a96ef.bin'), 'OPWM1');
    },
  },
  {
    name: 'the published version missing from the store',
    rule: 'wm.version-stored',
    tamper: (d) => rmSync(join(d, 'state/world-model/n/versions'), { recursive: true }),
  },
  {
    name: 'a rendered receipt whose version is not stored',
    rule: 'wm.atomic-version',
    tamper: (d) => rmSync(join(d, 'state/world-model/n/versions'), { recursive: true }),
  },
  {
    name: 'a node dir without receipts',
    rule: 'wm.orphan',
    where: { node: 'ghost' },
    tamper: (d) => {
      mkdirSync(join(d, 'world-model/ghost'));
      writeFileSync(join(d, 'world-model/ghost/x.md'), 'x');
    },
  },
];

async function goodRun() {
  const r = await fsRun();
  await r.call('commitWorldModel', { node: 'n', contract: 'c', files: { 'truth.json': '{"v":1}' } });
  await r.call('commitWorldModel', { node: 'n', contract: 'c', files: { 'truth.json': '{"v":1}' } });
  await r.call('failRender', { node: 'n', contract: 'c', reason: 'timeout' });
  await r.call('commitWorldModel', { node: 'n', contract: 'c', files: { 'truth.json': '{"v":2}' } });
  return r;
}

for (const c of CASES) {
  test(`caught: ${c.name} -> ${c.rule}`, async () => {
    const r = await goodRun();
    try {
      assert.equal(await worldModelVerifier.verify(r.runDir, {}), [], 'the untampered copy is clean');
      c.tamper(r.runDir);
      const findings = await worldModelVerifier.verify(r.runDir, {});
      const hit = findings.find((f) => f.rule === c.rule);
      assert.ok(hit, `${c.rule} not in ${JSON.stringify(findings.map((f) => f.rule))}`);
      for (const [k, v] of Object.entries(c.where ?? {})) assert.equal(hit![k as keyof Finding], v, `finding.${k}`);
      assert.ok(hit!.file || hit!.node, 'a finding names a file or node');
    } finally {
      await r.cleanup();
    }
  });
}

test.run();
