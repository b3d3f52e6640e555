import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { tempEnv } from '../../helpers/temp-env.ts';
import { driveScenario } from '../run-dir/drive-scenario.ts';
import { plantLedger } from './ledger-rows.ts';
import { execOn } from './seed-db.ts';
import { TEXT_ROWS, textDb } from './current-text-db.ts';

const rules = (findings: { rule: string }[]) => findings.map((f) => f.rule);

test('a state.db the current sqlite.md DDL and statements made (sqlite3 CLI) verifies with no finding', async () => {
  const t = textDb();
  try {
    await plantLedger({ runDir: '', db: t.db, exec: execOn(t.db), cleanup: () => {} }, () => {}, 'current');
    const r = await verifyPath(t.db, {});
    assert.is(r.kind, 'state-db');
    assert.equal(r.findings, []);
  } finally {
    t.cleanup();
  }
});

test('a v0 column left in a current state.db is db.column-missing of its current twin, and a bad binding value is named by its column', async () => {
  const t = textDb(
    `${TEXT_ROWS} ALTER TABLE run RENAME COLUMN root_source TO program_source;
     INSERT INTO bindings (name, binding, value) VALUES ('odd', 'variable', 'x');`,
  );
  try {
    const r = await verifyPath(t.db, {});
    assert.equal(rules(r.findings).sort(), ['db.binding-kind', 'db.column-missing']);
    assert.match(
      r.findings.find((f) => f.rule === 'db.column-missing')!.message,
      /table run has no column root_source/,
    );
    assert.match(r.findings.find((f) => f.rule === 'db.binding-kind')!.message, /^binding 'variable'/);
  } finally {
    t.cleanup();
  }
});

test('what our sqlite backend writes in the current edition verifies with no finding (state.db and state/agents.db)', async () => {
  const env = tempEnv(resolveDecisions({ attachmentThresholdBytes: 256 }));
  try {
    const b = await sqliteFactory.open({ ...env, edition: 'current' });
    const { run } = await driveScenario(b, 256);
    // Two nodes committing identical bytes share the address's row (decision sqlite-current-version-key).
    for (const node of ['a', 'b'])
      await b.call('commitWorldModel', { run, node, contract: 'c', files: { 'truth.json': '{}' } }, VM);
    await b.call('commitWorldModel', { run, node: 'b', contract: 'c', files: { 'truth.json': '{}' } }, VM);
    await b.call('failRender', { run, node: 'b', contract: 'c', reason: 'r' }, VM);
    await b.call('commitWorldModel', { run, node: 'b', contract: 'c', files: { 'truth.json': '{"b":1}' } }, VM);
    await b.close();
    const runDir = join(env.projectDir, 'runs', run);
    assert.ok(existsSync(join(runDir, 'root.prose.md')));
    assert.ok(existsSync(join(env.projectDir, 'state', 'agents.db')), 'project agents went to state/agents.db');
    const db = await verifyPath(join(runDir, 'state.db'), { attachmentThresholdBytes: 256 });
    assert.is(db.kind, 'state-db');
    assert.equal(db.findings, []);
    const agents = await verifyPath(join(env.projectDir, 'state', 'agents.db'), {});
    assert.equal(agents.findings, []);
  } finally {
    env.cleanup();
  }
});

test.run();
