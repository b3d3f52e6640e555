import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO } from './built-binary.ts';

// A clone is the whole project: nothing tracked may read or name a folder beside the checkout or one machine's
// absolute paths. .ci/run proves the reading part by running everything from a copy with nothing beside it; this
// spec catches the naming early and says where. The patterns are assembled so that this file does not match itself.
const FORBIDDEN: [RegExp, string][] = [
  [new RegExp(['\\.\\.', 'shared'].join('/')), 'a folder beside the checkout'],
  [new RegExp(['', 'work', ''].join('/')), 'an absolute path of the machine this was written on'],
  [new RegExp(['', '(home|Users)', '[A-Za-z0-9._-]+', ''].join('/')), 'a home directory'],
];
// Folders a checkout has but does not ship: installed, built or written by runs (.gitignore).
const NOT_SOURCE = new Set(['.git', 'node_modules', 'dist', 'ci-report', '.bench-out', 'tmp']);

/** Tracked files plus untracked ones git would add; without git (a copied tree), every file outside NOT_SOURCE. */
function sourceFiles(): string[] {
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  // A tracked file deleted in the working tree is listed by --cached but has nothing left to read; a symlinked
  // node_modules is listed by --others (`node_modules/` in .gitignore matches directories only) and is not source.
  if (git.status === 0)
    return git.stdout.split('\0').filter((f) => f && existsSync(join(REPO, f)) && lstatSync(join(REPO, f)).isFile());
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (e.isDirectory()) return NOT_SOURCE.has(e.name) ? [] : walk(join(dir, e.name));
      return e.isFile() ? [relative(REPO, join(dir, e.name))] : [];
    });
  return walk(REPO);
}

test('no source file names a path outside the checkout or an absolute machine path', () => {
  const files = sourceFiles();
  assert.ok(files.includes('package.json') && files.length > 100, `found ${files.length} files under ${REPO}`);
  const hits: string[] = [];
  for (const file of files) {
    // The lockfile holds registry URLs only; binary files (the vectors' OPWM1 bytes) are not text.
    if (file === 'package-lock.json') continue;
    const bytes = readFileSync(join(REPO, file));
    if (bytes.includes(0)) continue;
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const [re, what] of FORBIDDEN)
          if (re.test(line)) hits.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 160)}`);
      });
  }
  assert.equal(
    hits,
    [],
    `move what these read into the repository, or make the path relative to it:\n${hits.join('\n')}`,
  );
});

test('the Reactor vectors are in the checkout, with their licence', () => {
  const files = sourceFiles();
  assert.ok(files.includes('vectors/reactor/LICENSE'), 'vectors/reactor/LICENSE');
  assert.ok(files.includes('vectors/README.md'), 'vectors/README.md says where they came from');
  assert.ok(
    files.filter((f) => f.startsWith('vectors/reactor/') && f.endsWith('/receipts.json')).length >= 8,
    'eight Reactor state dirs',
  );
});

test.run();
