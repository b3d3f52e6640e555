import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeEdition } from '../../../src/verify/edition/tree-edition.ts';
import { FIXTURES, RUN_ID as V0_RUN_ID } from '../run-dir/fixture-copy.ts';
import { CURRENT_FIXTURES, VALID_RUN } from '../current-run/current-copy.ts';

const V0_PROJECT = join(FIXTURES, 'valid');
const V0_PROSE = join(V0_PROJECT, '.prose');
const V0_RUN = join(V0_PROSE, 'runs', V0_RUN_ID);
const CURRENT_ROOT = join(CURRENT_FIXTURES, 'valid');

function edition(path: string): string {
  const t = treeEdition(path);
  if ('none' in t) return 'none';
  return 'refused' in t ? `refused ${t.shape}` : `${t.edition} ${t.shape}`;
}

function scratch(f: (dir: string) => void): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'prose-edition-'));
  f(dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

test('the marker files name the edition: vm.log.md current, state.md v0, .prose/ v0, runs/ of current runs current', () => {
  assert.is(edition(VALID_RUN), 'current run');
  assert.is(edition(CURRENT_ROOT), 'current root');
  assert.is(edition(V0_RUN), 'v0 run');
  assert.is(edition(V0_PROSE), 'v0 root');
  assert.is(edition(V0_PROJECT), 'v0 root');
});

test('a run holding both markers, or neither, is refused with a request for --edition', () => {
  let dir = '';
  const done = scratch((d) => {
    dir = d;
    cpSync(VALID_RUN, join(d, 'both'), { recursive: true });
    writeFileSync(join(d, 'both', 'state.md'), '# Execution State\n');
    cpSync(VALID_RUN, join(d, 'neither'), { recursive: true });
    rmSync(join(d, 'neither', 'vm.log.md'));
  });
  try {
    for (const name of ['both', 'neither']) {
      const t = treeEdition(join(dir, name));
      assert.ok('refused' in t, name);
      if ('refused' in t) assert.match(t.refused, /--edition v0 or --edition current/);
    }
  } finally {
    done();
  }
});

test('a root whose runs/ holds runs of both editions is refused; one holding only state/ is a current root', () => {
  let dir = '';
  const done = scratch((d) => {
    dir = d;
    cpSync(CURRENT_ROOT, join(d, 'mixed'), { recursive: true });
    cpSync(V0_RUN, join(d, 'mixed', 'runs', V0_RUN_ID), { recursive: true });
    mkdirSync(join(d, 'durable', 'state', 'world-model'), { recursive: true });
  });
  try {
    assert.is(edition(join(dir, 'mixed')), 'refused root');
    assert.is(edition(join(dir, 'durable')), 'current root');
    assert.is(edition(join(V0_RUN, 'state.md')), 'none', 'a file is no tree: the verifiers detect it');
  } finally {
    done();
  }
});

test('a SQLite run of the current edition (state.db and root.prose.md, no program.prose) is current sql-run, not v0', () => {
  let dir = '';
  const done = scratch((d) => {
    dir = d;
    writeFileSync(join(d, 'state.db'), '');
    writeFileSync(join(d, 'root.prose.md'), '# watch\n');
  });
  try {
    const t = treeEdition(dir);
    assert.is(edition(dir), 'current sql-run');
    assert.ok('evidence' in t && /SQLite run of the current edition/.test(t.evidence), JSON.stringify(t));
    writeFileSync(join(dir, 'program.prose'), '# watch\n');
    assert.is(edition(dir), 'v0 run', 'with program.prose it is the v0 SQLite run (the toolkit writes both)');
  } finally {
    done();
  }
});

test.run();
