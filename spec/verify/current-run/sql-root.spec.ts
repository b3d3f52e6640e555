import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPath } from '../../../src/verify/registry.ts';
import { currentRunDb } from '../state-db/current-run-db.ts';
import { copyCurrent } from './current-copy.ts';

// `verify <openprose-root>` whose runs/ hold SQLite runs of the current edition (issue #33): the root is current, each
// SQL run is judged by its state.db with files named from the root, and filesystem runs beside them as before.
const FORK = 'UPDATE receipt SET prev = (SELECT prev FROM receipt WHERE id = 1) WHERE id = 3';
const STALE = `UPDATE world_model_published SET version = (SELECT fingerprints ->> '$."@atomic"' FROM receipt WHERE id = 1)`;

async function sqlRoot(tamper = '') {
  const r = await currentRunDb(['first\n', 'first\n', 'second\n']);
  try {
    if (tamper) r.sql(tamper);
    const { kind, edition, findings } = await verifyPath(dirname(dirname(r.dir)));
    return { id: basename(r.dir), kind, edition, found: findings.map((f) => `${f.rule} ${f.file}`) };
  } finally {
    r.cleanup();
  }
}

test('a root our sqlite backend wrote in the current edition is current and verifies clean', async () => {
  const v = await sqlRoot();
  assert.equal([v.kind, v.edition.edition, v.edition.source, v.found], ['current-run', 'current', 'detected', []]);
  assert.match(v.edition.evidence, new RegExp(`runs/${v.id}/state\\.db`));
});

test('a prev forked in a SQL run of the root is wm.chain.prev on runs/{id}/state.db', async () => {
  const v = await sqlRoot(FORK);
  assert.equal([v.kind, v.found], ['current-run', [`wm.chain.prev runs/${v.id}/state.db`]]);
});

test('a root holding a filesystem run and a SQL run judges both; an entry of neither kind is still root.run', async () => {
  const c = copyCurrent();
  const r = await currentRunDb(['first\n', 'first\n', 'second\n']);
  try {
    const id = basename(r.dir);
    cpSync(r.dir, join(c.root, 'runs', id), { recursive: true });
    const clean = await verifyPath(c.root);
    assert.equal([clean.kind, clean.edition.edition, clean.findings], ['current-run', 'current', []]);
    execFileSync('sqlite3', ['state.db', FORK], { cwd: join(c.root, 'runs', id) });
    c.edit('../../state/world-model/scout/published/findings.md', 'Orbit', 'Orbital');
    mkdirSync(join(c.root, 'runs', 'stray'));
    const { findings } = await verifyPath(c.root);
    assert.equal(findings.map((f) => `${f.rule} ${f.file}`).sort(), [
      'durable.published state/world-model/scout/published',
      'root.run runs/stray',
      `wm.chain.prev runs/${id}/state.db`,
    ]);
  } finally {
    r.cleanup();
    c.cleanup();
  }
});

test('each SQL run of a root is judged on its own: a node broken in one still has its stale pointer found in another', async () => {
  const a = await currentRunDb(['first\n', 'first\n', 'second\n']);
  const b = await currentRunDb(['first\n', 'first\n', 'second\n']);
  try {
    const root = dirname(dirname(a.dir));
    const ids = [basename(a.dir), basename(b.dir)];
    cpSync(b.dir, join(root, 'runs', ids[1]!), { recursive: true });
    a.sql(FORK);
    execFileSync('sqlite3', ['state.db', STALE], { cwd: join(root, 'runs', ids[1]!) });
    const { findings } = await verifyPath(root);
    assert.equal(findings.map((f) => `${f.rule} ${f.file}`).sort(), [
      `proj.world_model_published.stale runs/${ids[1]}/state.db`,
      `wm.chain.prev runs/${ids[0]}/state.db`,
    ]);
  } finally {
    a.cleanup();
    b.cleanup();
  }
});

test.run();
