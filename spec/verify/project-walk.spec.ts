import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/verify/finding.ts';
import { verifyPath } from '../../src/verify/registry.ts';
import { proseDirVerifier } from '../../src/verify/run-dir/index.ts';

// `verify PROJECT` must report everything `verify RUN` reports for each of its runs (docs/verify-rules.md: the
// world-model rules are "also checked with every run-dir"), named from the project.
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const HOME = join(FIXTURES, 'run-dirs', 'valid-home');
const V0_RUN = '20260115-143052-a7b3c9';
const CURRENT_RUN = '20260317-143052-a7b3c9';

const key = (f: Finding) => [f.rule, f.file ?? '', f.line ?? '', f.node ?? '', f.receipt ?? ''].join('|');

/** The runs under `root/runs/`, as paths. */
function runsOf(root: string): string[] {
  const runs = join(root, 'runs');
  return readdirSync(runs).map((id) => join(runs, id));
}

/** Each run's findings, renamed from `project` (a run's `../../state/x` is the root's `state/x`). */
async function unionOfRuns(project: string, root: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const run of runsOf(root)) {
    const at = relative(project, run).split('\\').join('/');
    for (const f of (await verifyPath(run, { homeDir: HOME })).findings)
      out.add(key({ ...f, file: f.file === undefined ? at : posix.normalize(`${at}/${f.file}`) }));
  }
  return out;
}

type Walk = (project: string) => Promise<Finding[]>;
const registryWalk: Walk = async (project) => (await verifyPath(project, { homeDir: HOME })).findings;

/** What `walk` reports under runs/ that no `verify RUN` does, and what a run reports that `walk` misses. */
async function disagreements(project: string, root: string, walk: Walk = registryWalk) {
  const whole = new Set((await walk(project)).map(key));
  const runs = await unionOfRuns(project, root);
  const prefix = relative(project, join(root, 'runs')).split('\\').join('/') + '/';
  return {
    runs,
    missed: [...runs].filter((k) => !whole.has(k)),
    invented: [...whole].filter((k) => k.split('|')[1].startsWith(prefix) && !runs.has(k)),
  };
}

async function compare(project: string, root: string): Promise<Set<string>> {
  const { runs, missed, invented } = await disagreements(project, root);
  assert.equal(missed, [], `verify ${project} misses what verify RUN reports`);
  assert.equal(invented, [], `verify ${project} reports what no verify RUN does`);
  return runs;
}

/** A copy of the v0 project whose run and import hold a world-model with a stale .version and a misnamed version. */
function brokenV0(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'prose-walk-'));
  cpSync(join(FIXTURES, 'run-dirs', 'valid'), dir, { recursive: true });
  const run = join(dir, '.prose', 'runs', V0_RUN);
  for (const at of [run, join(run, 'imports', 'alice--summarizer')]) {
    mkdirSync(join(at, 'world-model', 'scout'), { recursive: true });
    writeFileSync(join(at, 'world-model', 'scout', 'findings.md'), '# Findings\n');
    writeFileSync(join(at, 'world-model', 'scout', '.version'), `sha256:${'0'.repeat(64)}\n`);
    mkdirSync(join(at, 'state', 'world-model', 'scout', 'versions'), { recursive: true });
    writeFileSync(join(at, 'state', 'world-model', 'scout', 'versions', 'latest.bin'), 'OPWM1');
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('the valid fixtures: a v0 project, its .prose/, and two current roots agree with their runs', async () => {
  for (const [project, root] of [
    [join(FIXTURES, 'run-dirs', 'valid'), join(FIXTURES, 'run-dirs', 'valid', '.prose')],
    [join(FIXTURES, 'run-dirs', 'valid', '.prose'), join(FIXTURES, 'run-dirs', 'valid', '.prose')],
    [join(FIXTURES, 'current-runs', 'valid'), join(FIXTURES, 'current-runs', 'valid')],
    [join(FIXTURES, 'current-runs', 'faceted'), join(FIXTURES, 'current-runs', 'faceted')],
  ]) {
    assert.equal([...(await compare(project, root))], [], project);
  }
});

test('a v0 project reports the world-model errors of its run and of the run’s import, as the run alone does', async () => {
  const t = brokenV0();
  try {
    for (const project of [t.dir, join(t.dir, '.prose')]) {
      const runs = await compare(project, join(t.dir, '.prose'));
      const rules = [...runs].map((k) => k.split('|')[0]);
      assert.ok(rules.filter((r) => r === 'wm.version-hash').length >= 2, [...runs].join('\n'));
      assert.ok(rules.includes('wm.bin-name'), [...runs].join('\n'));
      assert.ok(
        [...runs].some((k) => k.includes('/imports/alice--summarizer/world-model/scout')),
        [...runs].join('\n'),
      );
    }
  } finally {
    t.cleanup();
  }
});

test('the comparison catches a project walk that skips a rule family (the bare prose-dir walk: no wm.*)', async () => {
  const t = brokenV0();
  try {
    const skipping: Walk = (project) => proseDirVerifier.verify(project, { homeDir: HOME });
    const { missed } = await disagreements(t.dir, join(t.dir, '.prose'), skipping);
    const families = new Set(missed.map((k) => k.split('.')[0]));
    assert.equal([...families], ['wm'], missed.join('\n'));
  } finally {
    t.cleanup();
  }
});

test('a current root reports a run’s stale .version as the run alone does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-walk-'));
  try {
    cpSync(join(FIXTURES, 'current-runs', 'valid'), dir, { recursive: true });
    const scout = join(dir, 'runs', CURRENT_RUN, 'world-model', 'scout');
    writeFileSync(join(scout, 'stray.tmp'), 'kept beside a published file\n');
    const runs = await compare(dir, dir);
    assert.ok(runs.size > 0, 'the stray file leaves the run with no finding');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
