import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// @ts-expect-error: a build script in plain JavaScript
import { checkSize, measureFile } from '../../scripts/check-size.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const script = join(repo, 'scripts', 'check-size.mjs');

// A file's measure depends on its text alone, so the copies' unchanged files are parsed once for all of them: the
// planted trees are held to the limits in this process (checkSize, what the CLI runs), not by a `--src` process each,
// which parsed all of src/ with TypeScript again every time (8.5 s of CPU for the file, against ~3 s).
const measured = new Map<string, ReturnType<typeof measureFile>>();
const measureOnce = (file: string) => {
  const text = readFileSync(file, 'utf8');
  if (!measured.has(text)) measured.set(text, measureFile(file));
  return measured.get(text)!;
};

/** A copy of src/ with `edit` applied, held to the limits, then removed: `{ status, stderr }` as the CLI's. */
function measurePlanted(edit: (src: string) => void) {
  const root = mkdtempSync(join(tmpdir(), 'prose-size-'));
  try {
    const src = join(root, 'src');
    cpSync(join(repo, 'src'), src, { recursive: true });
    edit(src);
    const { code, err } = checkSize(src, { measure: measureOnce }) as { code: number; err: string[] };
    return { status: code, stderr: err.join('\n') };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A function of `lines` lines in all. */
const fn = (name: string, lines: number) =>
  `export function ${name}(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 0;\n}\n`;

test('the real src/ is within every limit', () => {
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
});

test('an unchanged copy passes: what is planted below is what fails', () => {
  const r = measurePlanted(() => {});
  assert.is(r.status, 0, r.stderr);
});

test('a function past 100 lines fails, named with its file and line', () => {
  const r = measurePlanted((src) => writeFileSync(join(src, 'core', 'planted.ts'), fn('tooLong', 101)));
  assert.is(r.status, 1);
  assert.match(r.stderr, 'src/core/planted.ts:1 tooLong (101 lines)');
});

test('a function of exactly 100 lines passes the hard limit', () => {
  const r = measurePlanted((src) => writeFileSync(join(src, 'core', 'planted.ts'), fn('atTheLimit', 100)));
  assert.not.match(r.stderr, 'atTheLimit');
});

test('a file past 400 lines and a line past 160 characters fail', () => {
  const r = measurePlanted((src) => {
    writeFileSync(join(src, 'core', 'planted-long-file.ts'), `export const x = 1;\n${'// filler\n'.repeat(400)}`);
    writeFileSync(join(src, 'core', 'planted-wide.ts'), `export const s = '${'x'.repeat(170)}';\n`);
  });
  assert.is(r.status, 1);
  assert.match(r.stderr, 'planted-long-file.ts (401 lines)');
  assert.match(r.stderr, 'planted-wide.ts:1 (190 characters)');
});

test.run();
