import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: a build script in plain JavaScript, shared with the e2e specs that read its stamps
import { BINARY_INPUTS, inputsHash, inputsStamp } from '../../scripts/binary/inputs-hash.mjs';

// The e2e specs rebuild a binary when the hash of what it is made of differs from the one its build stamped beside it:
// so the hash must follow the bytes and names of the inputs, and nothing else (not a file's time, not other folders).

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'prose-inputs-hash-'));
  const files: Record<string, string> = {
    'src/core/a.ts': 'export const a = 1;\n',
    'src/cli/main.ts': 'export {};\n',
    'conformance/cases/x.yaml': 'area: x\ncases: []\n',
    'scripts/build-binary.mjs': '// build\n',
    'scripts/binary/bundle.mjs': '// bundle\n',
    'package-lock.json': '{}\n',
    'docs/running.md': '# not an input\n',
    'spec/e2e/binary.spec.ts': '// not an input\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

test('the inputs are the sources, the suite, the build and the lockfile', () => {
  assert.equal(BINARY_INPUTS, [
    'src',
    'conformance',
    'scripts/build-binary.mjs',
    'scripts/binary',
    'package-lock.json',
  ]);
  assert.is(inputsStamp('/x/dist/prose-state'), '/x/dist/prose-state.inputs');
});

test('a newer file time alone keeps the hash (a copied or re-checked-out tree keeps its binaries)', () => {
  const root = tree();
  try {
    const before = inputsHash(root);
    const later = new Date(Date.now() + 3_600_000);
    for (const f of ['src/core/a.ts', 'package-lock.json', 'conformance/cases/x.yaml'])
      utimesSync(join(root, f), later, later);
    assert.is(inputsHash(root), before);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a changed byte, a new file or a renamed one in any input changes the hash', () => {
  const root = tree();
  try {
    const seen = new Set([inputsHash(root)]);
    const changes: [string, () => void][] = [
      ['a source edited', () => writeFileSync(join(root, 'src/core/a.ts'), 'export const a = 2;\n')],
      ['a case added', () => writeFileSync(join(root, 'conformance/cases/y.yaml'), 'area: y\ncases: []\n')],
      ['a build helper edited', () => writeFileSync(join(root, 'scripts/binary/bundle.mjs'), '// bundle 2\n')],
      ['the lockfile edited', () => writeFileSync(join(root, 'package-lock.json'), '{ }\n')],
      ['a source renamed', () => renameSync(join(root, 'src/cli/main.ts'), join(root, 'src/cli/entry.ts'))],
    ];
    for (const [what, change] of changes) {
      change();
      const h = inputsHash(root);
      assert.ok(!seen.has(h), `${what}: the hash did not change`);
      seen.add(h);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('files outside the inputs leave the hash alone', () => {
  const root = tree();
  try {
    const before = inputsHash(root);
    writeFileSync(join(root, 'docs/running.md'), '# edited\n');
    writeFileSync(join(root, 'spec/e2e/binary.spec.ts'), '// edited\n');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist/prose-state.inputs'), 'x\n');
    assert.is(inputsHash(root), before);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
