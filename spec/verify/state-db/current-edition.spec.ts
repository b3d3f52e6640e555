import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { AGENTS_DDL, CURRENT_RUN_DDL } from '../../../src/sqlite/index.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { tempEnv } from '../../helpers/temp-env.ts';
import { driveScenario } from '../run-dir/drive-scenario.ts';
import { plantLedger } from './ledger-rows.ts';
import { execOn } from './seed-db.ts';

const RUN = '20260116-143052-a7b3c9';

/** Rows as the current sqlite.md's own statements write them (run registration is the VM's, the rest verbatim). */
const TEXT_ROWS = `
INSERT INTO run (id, root_path, root_source) VALUES ('${RUN}', 'research/deep-research.prose.md', 'let research = session: researcher');
INSERT INTO execution (statement_index, statement_text, status, started_at) VALUES (3, 'session "Research AI safety"', 'executing', datetime('now'));
INSERT INTO execution (statement_index, statement_text, status, metadata) VALUES (5, 'parallel:', 'started', '{"parallel_id": "p1", "branches": ["a", "b", "c"]}');
INSERT OR REPLACE INTO bindings (name, execution_id, binding, value, source_statement, updated_at)
  VALUES ('research', NULL, 'let', 'AI safety research covers alignment, robustness...', 'let research = session: researcher', datetime('now'));
INSERT OR REPLACE INTO bindings (name, execution_id, binding, value, source_statement, updated_at)
  VALUES ('result', 43, 'let', 'Processed chunk into 3 sub-parts...', 'let result = session "Process chunk"', datetime('now'));
INSERT INTO bindings (name, binding, value, attachment_path, source_statement)
  VALUES ('full_report', 'let', 'Full analysis report (847KB) - see attachment', 'attachments/full_report.md', 'let full_report = session "Generate report"');
INSERT INTO agents (name, scope) VALUES ('captain', 'execution');
UPDATE agents SET memory = '...', updated_at = datetime('now') WHERE name = 'captain';
INSERT INTO agent_segments (agent_name, segment_number, prompt, summary) VALUES ('captain', 1, '...', '...');
INSERT INTO imports (alias, source_ref, resolved_at) VALUES ('alice--research', 'https://p.prose.md/@alice/research', datetime('now'));
`;

/** A current-edition run directory whose state.db the real sqlite3 made from the current DDL (corrected) and rows. */
function textDb(rows = TEXT_ROWS): { db: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'prose-verify-current-db-'));
  const runDir = join(root, 'runs', RUN);
  mkdirSync(join(runDir, 'attachments'), { recursive: true });
  writeFileSync(join(runDir, 'root.prose.md'), 'let research = session: researcher\n');
  writeFileSync(join(runDir, 'attachments', 'full_report.md'), 'The full report.\n');
  const db = join(runDir, 'state.db');
  const r = spawnSync('/usr/bin/sqlite3', ['-bail', db, CURRENT_RUN_DDL + AGENTS_DDL + rows], { encoding: 'utf8' });
  assert.is(r.stderr, '');
  return { db, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

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
