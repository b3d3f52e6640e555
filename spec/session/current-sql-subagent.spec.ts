import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instructionsCommand } from '../../src/cli/commands/instructions.ts';
import { verifyCommand } from '../../src/cli/commands/verify.ts';
import { sqliteFactory } from '../../src/backends/sqlite/index.ts';
import { VM } from '../../src/core/actor.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { ensureSchema, SqliteFile } from '../../src/sqlite/index.ts';
import { checkSubagentOutput, followInstructions, parseLocation } from '../../src/session/index.ts';
import { cliIo } from './helpers/cli-io.ts';

// The current edition's subagent contract on SQL storage (decision current-sql-subagent): current sqlite.md and
// postgres.md "Responsibility Separation", "From Spawned Sessions".

/** A project with one current-edition sqlite run, made by the sqlite backend: <root>/runs/{id}/state.db. */
async function currentSqliteRun() {
  const root = mkdtempSync(join(tmpdir(), 'prose-current-sql-'));
  const env = {
    projectDir: join(root, 'project'),
    homeDir: join(root, 'home'),
    decisions: { ...DEFAULT_DECISIONS },
    storageKey: root,
    edition: 'current' as const,
  };
  const backend = await sqliteFactory.open(env);
  const { run } = await backend.call('createRun', { program: 'session "x"\n' }, VM);
  return { env, backend, run, runDir: join(env.projectDir, 'runs', run) };
}

async function instructions(projectDir: string, run: string, extra: string[] = []) {
  const c = cliIo(projectDir);
  const argv = ['--backend', 'sqlite', '--edition', 'current', '--run', run, '--project', projectDir];
  const code = await instructionsCommand.run(
    [...argv, '--binding', 'research', '--sqlite3', 'sqlite3', ...extra],
    c.io,
  );
  assert.is(code, 0, c.out.stderr);
  return c.out.stdout;
}

test('instructions --edition current --backend sqlite: the binding column and the runs/{id}/state.db location', async () => {
  const r = await currentSqliteRun();
  const text = await instructions(r.env.projectDir, r.run);
  assert.match(text, /^Edition: current \(sqlite\.md /);
  assert.match(text, /INTO bindings \(name, execution_id, binding, value, source_statement, updated_at\)/);
  assert.not.match(text, /execution_id, kind,/);
  assert.match(
    text,
    new RegExp(`^Location: runs/${r.run}/state\\.db \\(bindings table, name='research', execution_id=NULL\\)$`, 'm'),
  );
  assert.not.match(text, /\.prose\//);
  await r.backend.close();
});

test('a scripted subagent following them writes a row the backend resolves, and its confirmation checks clean', async () => {
  const r = await currentSqliteRun();
  const text = await instructions(r.env.projectDir, r.run);
  const work = { value: "It's done.\n", summary: 'Done.' };
  const o = { storage: 'sqlite' as const, projectDir: r.env.projectDir, homeDir: r.env.homeDir };
  const message = await followInstructions(text, work, o);
  const resolved = await r.backend.call('resolve', { run: r.run, name: 'research' }, VM);
  assert.is(resolved.value, "It's done.\n");
  const opts = { projectDir: r.env.projectDir, homeDir: r.env.homeDir };
  assert.equal(await checkSubagentOutput(message, r.runDir, opts), []);
  // The texts' own spelling of the project root names the same database.
  const literal = message.replace('Location: runs/', 'Location: <openprose-root>/runs/');
  assert.equal(await checkSubagentOutput(literal, r.runDir, opts), []);
  // The v0 path of the same run is a finding of its own, not a mismatch.
  const v0 = message.replace('Location: runs/', 'Location: .prose/runs/');
  const rules = (await checkSubagentOutput(v0, r.runDir, opts)).map((f) => f.rule);
  assert.equal(rules, ['message.location-edition']);
  await r.backend.close();
});

test('a persistent agent: memory in state/agents.db checks clean; the v0 .prose/agents.db location is reported', async () => {
  const r = await currentSqliteRun();
  const text = await instructions(r.env.projectDir, r.run, ['--agent', 'captain', '--scope', 'project']);
  assert.match(text, /^Location: state\/agents\.db \(agents table, name='captain'\)$/m);
  const work = {
    value: 'Reviewed.\n',
    summary: 'Review.',
    memory:
      '# Agent Memory: captain\n\n## Current Understanding\n\nAPI at src/api.ts:12.\n\n## Decisions Made\n\n' +
      '- 2026-07-22: Keep JWT — stateless\n\n## Open Concerns\n\n- none\n',
    segmentSummary: '- Reviewed: src/api.ts:1-40\n- Found: 1 issue at line 12\n- Decided: fix it\n- Next: re-review\n',
  };
  const o = { storage: 'sqlite' as const, projectDir: r.env.projectDir, homeDir: r.env.homeDir };
  const message = await followInstructions(text, work, o);
  const opts = { projectDir: r.env.projectDir, homeDir: r.env.homeDir, expect: { agent: 'captain', segment: 1 } };
  assert.equal(await checkSubagentOutput(message, r.runDir, opts), []);
  for (const v0 of ['.prose/agents.db', '~/.prose/agents.db']) {
    const moved = message.replace('Location: state/agents.db', `Location: ${v0}`);
    const rules = (await checkSubagentOutput(moved, r.runDir, opts)).map((f) => f.rule);
    assert.equal(rules, ['message.location-edition'], v0);
  }
  await r.backend.close();
});

test("a v0 bindings table (column kind) in a current run's state.db is binding.edition-column, not a crash", async () => {
  const root = mkdtempSync(join(tmpdir(), 'prose-current-sql-v0cols-'));
  const runDir = join(root, 'runs', '20260722-101500-a1b2c3');
  mkdirSync(runDir, { recursive: true });
  const db = await SqliteFile.open(join(runDir, 'state.db'));
  await db.write((d) => {
    ensureSchema(d, 'run', join(runDir, 'state.db'), 'v0');
    d.exec("INSERT INTO bindings (name, execution_id, kind, value) VALUES ('research', NULL, 'let', 'x')");
  });
  db.close();
  const reply = [
    'Binding written: research',
    `Location: runs/20260722-101500-a1b2c3/state.db (bindings table, name='research', execution_id=NULL)`,
    'Summary: x.',
    '',
  ].join('\n');
  const rules = (await checkSubagentOutput(reply, runDir, { projectDir: root })).map((f) => f.rule);
  assert.equal(rules, ['binding.edition-column']);
  // As v0 read it, the same rows are fine: the column is the edition's, not the table's fault.
  const asV0 = await checkSubagentOutput(reply, runDir, { projectDir: root, edition: 'v0' });
  assert.ok(asV0.every((f) => f.rule !== 'binding.edition-column'));
});

test('verify --subagent-output reads the edition from runs/{id}/ and judges the binding confirmation there', async () => {
  const r = await currentSqliteRun();
  const text = await instructions(r.env.projectDir, r.run);
  const o = { storage: 'sqlite' as const, projectDir: r.env.projectDir, homeDir: r.env.homeDir };
  writeFileSync(join(r.env.projectDir, 'ok.txt'), await followInstructions(text, { value: 'v\n', summary: 'V.' }, o));
  const c = cliIo(r.env.projectDir);
  assert.is(await verifyCommand.run([join('runs', r.run), '--subagent-output', 'ok.txt'], c.io), 0, c.out.stdout);
  assert.match(c.out.stdout, /current/);
  writeFileSync(join(r.env.projectDir, 'render.txt'), 'Render complete: research\nSummary: V.\n');
  const d = cliIo(r.env.projectDir);
  assert.is(await verifyCommand.run([join('runs', r.run), '--subagent-output', 'render.txt'], d.io), 1);
  assert.match(d.out.stdout, /message\.binding-missing/);
  await r.backend.close();
});

test("postgres locations: the current text's AND execution_id IS NULL reads as root scope", () => {
  const loc = parseLocation("openprose.bindings WHERE name='research' AND run_id='r' AND execution_id IS NULL");
  assert.equal(loc, {
    form: 'postgres',
    table: 'bindings',
    where: { name: 'research', run_id: 'r', execution_id: null },
  });
});

test('instructions --edition current --backend postgres: binding column, IS NULL at root, no agents.path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-current-pg-'));
  const c = cliIo(dir);
  const argv = ['--backend', 'postgres', '--edition', 'current', '--run', '20260722-101500-a1b2c3', '--binding', 'r'];
  const agent = ['--agent', 'captain', '--scope', 'execution', '--segment', '2'];
  assert.is(await instructionsCommand.run([...argv, ...agent], c.io), 0, c.out.stderr);
  assert.match(c.out.stdout, /^Edition: current \(postgres\.md /);
  assert.match(c.out.stdout, /\(name, run_id, execution_id, binding, value, source_statement\)/);
  assert.match(c.out.stdout, /SET binding = EXCLUDED\.binding/);
  assert.match(
    c.out.stdout,
    /^Location: openprose\.bindings WHERE name='r' AND run_id='20260722-101500-a1b2c3' AND execution_id IS NULL$/m,
  );
  assert.match(c.out.stdout, /INSERT INTO openprose\.agents \(name, scope, run_id, memory\)/);
  assert.not.match(c.out.stdout, /COALESCE\(path|, path,|run_id, path/);
});

test.run();
