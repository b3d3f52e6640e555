import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPath, type VerifyPathOptions } from '../../../src/verify/registry.ts';
import { currentRunDb } from './current-run-db.ts';

// `verify runs/{id}/` of a SQLite run of the current edition (issue #33): the directory is judged by its state.db's
// current columns and says so; a tampering planted with the real sqlite3 CLI is reported from the directory.
async function verified(tamper: string, at: (dir: string) => string, opts: VerifyPathOptions = {}) {
  const r = await currentRunDb(['first\n', 'first\n', 'second\n']);
  try {
    if (tamper) r.sql(tamper);
    const { kind, edition, findings } = await verifyPath(at(r.dir), opts);
    return {
      kind,
      edition: `${edition.edition} ${edition.source}`,
      evidence: edition.evidence,
      rules: findings.map((f) => f.rule),
    };
  } finally {
    r.cleanup();
  }
}

const dirOf = (dir: string) => dir;
const dbOf = (dir: string) => join(dir, 'state.db');

test('the run directory of a current SQLite run is judged current, by its state.db, with nothing to report', async () => {
  const v = await verified('', dirOf);
  assert.equal([v.kind, v.edition, v.rules], ['current-sql-run', 'current detected', []]);
  assert.match(v.evidence, /state\.db beside root\.prose\.md/);
});

test('a forked prev planted with sqlite3 is reported from the directory (wm.chain.prev on state.db)', async () => {
  const fork = 'UPDATE receipt SET prev = (SELECT prev FROM receipt WHERE id = 1) WHERE id = 3';
  const v = await verified(fork, dirOf);
  assert.equal([v.kind, v.rules], ['current-sql-run', ['wm.chain.prev']]);
});

test('--edition v0 reads the same directory by the v0 rules (run-dir), as before', async () => {
  const v = await verified('', dirOf, { edition: 'v0' });
  assert.equal([v.kind, v.edition], ['run-dir', 'v0 given']);
  assert.ok(v.rules.includes('run.program'), v.rules.join());
});

test('the state.db itself says which edition its columns name', async () => {
  const v = await verified('', dbOf);
  assert.equal([v.kind, v.edition, v.rules], ['state-db', 'current detected', []]);
  assert.match(v.evidence, /run\.root_path/);
});

test('--edition v0 on a current state.db judges it by the v0 columns: each renamed one is db.column-missing', async () => {
  const v = await verified('', dbOf, { edition: 'v0' });
  assert.equal([v.kind, v.edition, [...new Set(v.rules)]], ['state-db', 'v0 given', ['db.column-missing']]);
});

test.run();
