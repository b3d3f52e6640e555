import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPath } from '../../../src/verify/registry.ts';
import { currentRunDb } from './current-run-db.ts';

// A world_model_version row whose artifact is offloaded to attachment_path (current sqlite.md: "set when artifact is
// offloaded to attachments/"): the file is read from under attachments/ of the run and must hash to the version.
// Offloading is planted with the real sqlite3 CLI (its writefile() copies the row's bytes out).
/** A current SQLite run with one committed version, then `plant(runDir, sqlite3, tempRoot)`; the rules verify reports. */
async function rulesAfter(plant: (dir: string, sql: (s: string) => void, root: string) => void): Promise<string[]> {
  const r = await currentRunDb(['offloaded\n']);
  try {
    mkdirSync(join(r.dir, 'attachments'), { recursive: true });
    plant(r.dir, r.sql, r.root);
    const { findings } = await verifyPath(r.dir);
    return findings.map((f) => f.rule).sort();
  } finally {
    r.cleanup();
  }
}

const OFFLOAD = (path: string) => `UPDATE world_model_version SET attachment_path = '${path}', artifact = NULL`;
const COPY_OUT = (path: string) => `SELECT writefile('${path}', artifact) FROM world_model_version`;

test('an artifact offloaded to attachments/ whose file hashes to the version verifies clean', async () => {
  const rules = await rulesAfter((_d, sql) => {
    sql(COPY_OUT('attachments/n.bin'));
    sql(OFFLOAD('attachments/n.bin'));
  });
  assert.equal(rules, []);
});

test('an offloaded file whose bytes changed is wm.bin-hash', async () => {
  const rules = await rulesAfter((dir, sql) => {
    sql(COPY_OUT('attachments/n.bin'));
    sql(OFFLOAD('attachments/n.bin'));
    writeFileSync(join(dir, 'attachments', 'n.bin'), 'other bytes');
  });
  assert.equal(rules, ['wm.bin-hash']);
});

test('an offloaded file that is missing is wm.version-attachment', async () => {
  assert.equal(await rulesAfter((_d, sql) => sql(OFFLOAD('attachments/n.bin'))), ['wm.version-attachment']);
});

test('a path leaving attachments/ is a finding and is never read, even where the right bytes lie', async () => {
  for (const path of ['../outside.bin', 'attachments/../../outside.bin', '/tmp/outside.bin', 'sources/n.bin']) {
    const rules = await rulesAfter((dir, sql, root) => {
      // The right bytes outside the run (and in the tree, under sources/): reading them would hide the finding.
      sql(COPY_OUT(join(root, 'outside.bin')));
      sql(COPY_OUT(join(dir, '..', 'outside.bin')));
      mkdirSync(join(dir, 'sources'), { recursive: true });
      sql(COPY_OUT('sources/n.bin'));
      sql(OFFLOAD(path));
    });
    assert.equal(rules, ['wm.version-attachment'], path);
  }
});

test('a link under attachments/ (to a file with the right bytes) is not followed: wm.version-attachment', async () => {
  for (const link of ['attachments/n.bin', 'attachments/sub']) {
    const rules = await rulesAfter((dir, sql, root) => {
      mkdirSync(join(root, 'elsewhere'));
      sql(COPY_OUT(join(root, 'elsewhere', 'n.bin')));
      if (link === 'attachments/n.bin') symlinkSync(join(root, 'elsewhere', 'n.bin'), join(dir, link));
      else symlinkSync(join(root, 'elsewhere'), join(dir, link));
      sql(OFFLOAD(link === 'attachments/n.bin' ? link : 'attachments/sub/n.bin'));
    });
    assert.equal(rules, ['wm.version-attachment'], link);
  }
});

test.run();
