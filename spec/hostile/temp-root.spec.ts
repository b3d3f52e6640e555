import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BackendEnv, BackendFactory } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import type { CaseResult } from '../../src/conformance/outcome.ts';
import { runSuite, selectCases, type Listener } from '../../src/conformance/run-suite.ts';

// The whole hostile-input area on the filesystem backend, with the runner's temp root and HOME pointed at fresh
// directories: every file a case makes stays inside that case's directory, and nothing is left behind.

/** Every path under `dir` (directories end in "/"), relative and sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) {
        out.push(`${relative(dir, p)}/`);
        walk(p);
      } else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const quiet: Listener = { header() {}, result() {}, footer() {} };

interface Watched {
  violations: string[];
  leftInTemp: string[];
  leftInHome: string[];
  results: CaseResult[];
  caseDirs: number;
  wanted: number;
}

/** Runs the selected cases with TMPDIR and HOME pointed at fresh directories and watches what each case leaves. */
async function watchRun(inner: BackendFactory, filter: { areas: string[]; ids: string[] }): Promise<Watched> {
  const base = mkdtempSync(join(tmpdir(), 'prose-hostile-'));
  const tmpRoot = join(base, 'tmp');
  const fakeHome = join(base, 'home');
  mkdirSync(tmpRoot);
  mkdirSync(fakeHome);
  const saved = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP, HOME: process.env.HOME };
  const violations: string[] = [];
  const opened = new Set<string>();
  // The runner makes one temp root and a directory per case under it; at dispose time (before the case directory
  // is removed) that must be all there is, and a case directory holds only project/ and home/.
  const watching: BackendFactory = {
    ...inner,
    async open(env: BackendEnv) {
      if (!env.projectDir.startsWith(tmpRoot + sep))
        violations.push(`project directory ${env.projectDir} is not under the temp root`);
      opened.add(dirname(env.projectDir));
      return inner.open(env);
    },
    async dispose(env: BackendEnv) {
      const caseDir = dirname(env.projectDir);
      const runnerRoot = dirname(caseDir);
      const rootEntries = readdirSync(tmpRoot);
      if (rootEntries.length !== 1 || rootEntries[0] !== basename(runnerRoot))
        violations.push(`temp root holds ${JSON.stringify(rootEntries)}`);
      const cases = readdirSync(runnerRoot);
      if (cases.length !== 1 || cases[0] !== basename(caseDir))
        violations.push(`runner root holds ${JSON.stringify(cases)} during ${basename(caseDir)}`);
      const inCase = readdirSync(caseDir).filter((e) => e !== 'project' && e !== 'home');
      if (inCase.length)
        violations.push(`case ${basename(caseDir)} holds ${JSON.stringify(inCase)} beside project/ and home/`);
      const home = tree(fakeHome);
      if (home.length) violations.push(`HOME got ${JSON.stringify(home)}`);
      await inner.dispose?.(env);
    },
  };
  try {
    process.env.TMPDIR = tmpRoot;
    process.env.TMP = tmpRoot;
    process.env.TEMP = tmpRoot;
    process.env.HOME = fakeHome;
    assert.is(tmpdir(), tmpRoot, 'os.tmpdir() follows TMPDIR');
    const suite = builtinSuite();
    const wanted = selectCases(suite, filter).length;
    const results = await runSuite({
      suite,
      factories: [watching],
      decisions: DEFAULT_DECISIONS,
      filter,
      listener: quiet,
    });
    return {
      violations,
      leftInTemp: tree(tmpRoot),
      leftInHome: tree(fakeHome),
      results,
      caseDirs: opened.size,
      wanted,
    };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(base, { recursive: true, force: true });
  }
}

test('hostile-input on filesystem writes only inside each case directory and leaves nothing behind', async () => {
  const w = await watchRun(filesystemFactory, { areas: ['hostile-input'], ids: [] });
  assert.ok(w.wanted >= 50, `hostile-input has ${w.wanted} cases`);
  assert.is(w.results.length, w.wanted);
  // A restart opens a case's storage again; distinct case directories are one per case.
  assert.is(w.caseDirs, w.wanted, 'every case ran in a directory of its own');
  assert.equal(w.violations, []);
  assert.equal(w.leftInTemp, [], 'the runner removed its temp root and every case directory');
  assert.equal(w.leftInHome, [], 'nothing was written to HOME');
});

test('the watch itself catches a backend that writes beside its project directory or into HOME', async () => {
  const leaky: BackendFactory = {
    ...filesystemFactory,
    async open(env) {
      writeFileSync(join(env.projectDir, '..', 'escaped.md'), 'x');
      writeFileSync(join(homedir(), '.leak'), 'x');
      return filesystemFactory.open(env);
    },
  };
  const w = await watchRun(leaky, { areas: [], ids: ['hostile-input/value-empty'] });
  assert.is(w.results.length, 1);
  assert.ok(
    w.violations.some((v) => v.includes('escaped.md')),
    JSON.stringify(w.violations),
  );
  assert.ok(
    w.violations.some((v) => v.includes('.leak')),
    JSON.stringify(w.violations),
  );
});

test.run();
