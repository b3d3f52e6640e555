import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Finding } from '../../src/verify/finding.ts';
import { verifyPath, type VerifyResult } from '../../src/verify/registry.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/verify/kit/tree-rules.ts';
import { bounded, boundedVerify } from './bounded-verify.ts';
import { copyValid, RUN_ID, type FixtureCopy } from '../verify/run-dir/fixture-copy.ts';

// Hostile state trees (issue 34, "verify reads only what it owns"): links, FIFOs, loops, huge files and names that
// are not UTF-8, built in a temp dir. Each probe must give its tree.* finding and never quote what lies outside.
const SECRET = 'OUTSIDE-THE-TREE-7f3a';

/** A valid .prose/ copy plus, beside it (outside the verified tree), a secret file and a directory. */
function hostile(): FixtureCopy & { outside: string; secret: string } {
  const fx = copyValid();
  const outside = join(dirname(dirname(fx.prose)), 'outside');
  mkdirSync(join(outside, `${SECRET}-dir`), { recursive: true });
  const secret = join(outside, 'secret.md');
  writeFileSync(secret, `# ${SECRET}\nkind: let\n`);
  return { ...fx, outside, secret };
}

const only = (r: VerifyResult, rule: string) => r.findings.filter((f) => f.rule === rule);
const quotesOutside = (fs: Finding[]) => JSON.stringify(fs).includes(SECRET);

test('a binding linked to a file outside the tree: tree.symlink, its target never quoted', async () => {
  const fx = hostile();
  try {
    execFileSync('rm', [join(fx.run, 'bindings', 'research.md')]);
    symlinkSync(fx.secret, join(fx.run, 'bindings', 'research.md'));
    const r = await verifyPath(fx.run);
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      ['bindings/research.md'],
    );
    assert.not.ok(quotesOutside(r.findings), JSON.stringify(r.findings));
  } finally {
    fx.cleanup();
  }
});

test('agents linked to a directory outside the tree: tree.symlink, the directory never listed', async () => {
  const fx = hostile();
  try {
    execFileSync('rm', ['-r', join(fx.run, 'agents')]);
    symlinkSync(fx.outside, join(fx.run, 'agents'));
    const r = await verifyPath(fx.run);
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      ['agents'],
    );
    assert.not.ok(quotesOutside(r.findings), JSON.stringify(r.findings));
  } finally {
    fx.cleanup();
  }
});

test('runs linked out of .prose/: tree.symlink, no run outside is walked', async () => {
  const fx = hostile();
  try {
    const elsewhere = join(fx.outside, 'runs');
    execFileSync('mv', [join(fx.prose, 'runs'), elsewhere]);
    symlinkSync(elsewhere, join(fx.prose, 'runs'));
    const r = await verifyPath(fx.prose, { homeDir: fx.home });
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      ['runs'],
    );
    assert.equal(
      r.findings.filter((f) => f.file?.startsWith('runs/')),
      [],
    );
  } finally {
    fx.cleanup();
  }
});

test('a binding linked to /dev/zero: tree.symlink in bounded time and memory', () => {
  const fx = hostile();
  try {
    symlinkSync('/dev/zero', join(fx.run, 'bindings', 'zero.md'));
    const r = bounded(fx.run);
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      ['bindings/zero.md'],
    );
  } finally {
    fx.cleanup();
  }
});

test('a FIFO among the bindings: tree.special-file, never opened', () => {
  const fx = hostile();
  try {
    execFileSync('mkfifo', [join(fx.run, 'bindings', 'pipe.md')]);
    const r = bounded(fx.run);
    assert.equal(
      only(r, 'tree.special-file').map((f) => [f.file, f.severity]),
      [['bindings/pipe.md', 'error']],
    );
  } finally {
    fx.cleanup();
  }
});

test('a FIFO named as the path: no verifier recognises it (detection opens nothing that blocks)', () => {
  const fx = hostile();
  try {
    const fifo = join(fx.outside, 'pipe');
    execFileSync('mkfifo', [fifo]);
    assert.equal(boundedVerify(fifo), { error: 'E_UNSUPPORTED' });
    assert.equal(
      bounded(fifo, 'transcript').findings.map((f) => f.rule),
      ['tree.special-file'],
    );
  } finally {
    fx.cleanup();
  }
});

test('two imports linked to their parent: two tree.symlink findings, no exponential walk', () => {
  const fx = hostile();
  try {
    symlinkSync('..', join(fx.run, 'imports', 'x--y'));
    symlinkSync('..', join(fx.run, 'imports', 'z--w'));
    const r = bounded(fx.run);
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      ['imports/x--y', 'imports/z--w'],
    );
  } finally {
    fx.cleanup();
  }
});

test('a binding over the size cap (set through VerifyOptions): tree.too-large, and it is not read', async () => {
  const fx = hostile();
  try {
    const big = join(fx.run, 'bindings', 'big.md');
    writeFileSync(big, '');
    truncateSync(big, 1 << 20);
    const r = await verifyPath(fx.run, { maxFileBytes: 1 << 16 });
    assert.equal(
      only(r, 'tree.too-large').map((f) => f.file),
      ['bindings/big.md'],
    );
    assert.equal(
      r.findings.filter((f) => f.file === 'bindings/big.md').map((f) => f.rule),
      ['tree.too-large'],
    );
  } finally {
    fx.cleanup();
  }
});

test('a sparse binding one byte past the default cap: tree.too-large, no "file permissions" hint', async () => {
  const fx = hostile();
  try {
    const big = join(fx.run, 'bindings', 'huge.md');
    writeFileSync(big, '');
    truncateSync(big, DEFAULT_MAX_FILE_BYTES + 1);
    const r = await verifyPath(fx.run);
    const mine = r.findings.filter((f) => f.file === 'bindings/huge.md');
    assert.equal(
      mine.map((f) => f.rule),
      ['tree.too-large'],
    );
    assert.match(mine[0]!.message, `${DEFAULT_MAX_FILE_BYTES + 1} bytes`);
  } finally {
    fx.cleanup();
  }
});

test('a binding whose name is not UTF-8: tree.name-encoding with the bytes shown, not "no such file"', async () => {
  const fx = hostile();
  try {
    writeFileSync(
      Buffer.concat([Buffer.from(join(fx.run, 'bindings', 'r')), Buffer.from([0xff]), Buffer.from('.md')]),
      '# r\n',
    );
    const r = await verifyPath(fx.run);
    assert.equal(
      only(r, 'tree.name-encoding').map((f) => f.file),
      ['bindings/r\\xff.md'],
    );
    assert.equal(only(r, 'run.unreadable'), []);
  } finally {
    fx.cleanup();
  }
});

test('a link among the receipts: one tree.symlink, from the world-model scan, not twice', async () => {
  const fx = hostile();
  try {
    mkdirSync(join(fx.run, 'receipts'));
    symlinkSync(fx.secret, join(fx.run, 'receipts', 'n.jsonl'));
    const r = await verifyPath(fx.run);
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      ['receipts/n.jsonl'],
    );
    assert.not.ok(quotesOutside(r.findings), JSON.stringify(r.findings));
  } finally {
    fx.cleanup();
  }
});

test('a Reactor state directory with a linked version file: tree.symlink, never read', async () => {
  const fx = hostile();
  try {
    const reactor = join(fx.outside, 'reactor');
    const node = join(reactor, 'world-models', Buffer.from('n').toString('hex'), 'versions');
    mkdirSync(node, { recursive: true });
    writeFileSync(join(reactor, 'receipts.json'), '[]\n');
    symlinkSync(fx.secret, join(node, `sha256_${'0'.repeat(64)}.bin`));
    const r = await verifyPath(reactor);
    assert.is(r.kind, 'reactor');
    assert.equal(
      only(r, 'tree.symlink').map((f) => f.file),
      [`world-models/6e/versions/sha256_${'0'.repeat(64)}.bin`],
    );
  } finally {
    fx.cleanup();
  }
});

test('a valid tree gives no tree.* finding', async () => {
  const fx = hostile();
  try {
    const r = await verifyPath(fx.prose, { homeDir: fx.home });
    assert.equal(
      r.findings.filter((f) => f.rule.startsWith('tree.')),
      [],
    );
    assert.ok(RUN_ID);
  } finally {
    fx.cleanup();
  }
});

test.run();
