import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import type { Backend } from '../../src/core/backend.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { assertCorrupt, freshEnv, sub, agent } from './_env.ts';

// Files the filesystem backend reads back, damaged by hand: every read is a typed E_CORRUPT/E_FORMAT naming the
// file, never a crash or a silently wrong value.

async function withRun(fn: (b: Backend, run: string, runDir: string) => Promise<void>): Promise<void> {
  const env = freshEnv();
  const b = await filesystemFactory.open(env);
  try {
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    await fn(b, run, join(env.projectDir, '.prose', 'runs', run));
  } finally {
    await b.close();
    env.cleanup();
  }
}

const BINDING_DAMAGE: [string, (text: string) => string][] = [
  ['the --- separator is missing', (t) => t.replace('\n---\n', '\n')],
  ['the heading is gone', (t) => t.replace(/^# x\n/, '')],
  ['the kind is unknown', (t) => t.replace('kind: let', 'kind: var')],
  ['the source fence is never closed', (t) => t.replace(/\n```\n\n---/, '\n\n---')],
  ['execution_id is negative', (t) => t.replace('kind: let\n', 'kind: let\nexecution_id: -1\n')],
  ['an unknown header line', (t) => t.replace('kind: let\n', 'kind: let\nowner: mallory\n')],
  ['the file is empty', () => ''],
  ['the file is cut inside the header', (t) => t.slice(0, 12)],
];

for (const [why, damage] of BINDING_DAMAGE) {
  test(`binding file: ${why} -> resolve, listBindings and resume answer E_CORRUPT naming bindings/x.md`, async () => {
    await withRun(async (b, run, dir) => {
      await b.call(
        'bind',
        { run, name: 'x', kind: 'let', value: 'the value\n', source: 'let x = session "s"' },
        sub('x'),
      );
      const file = join(dir, 'bindings', 'x.md');
      writeFileSync(file, damage(readFileSync(file, 'utf8')));
      await assertCorrupt('resolve', () => b.call('resolve', { run, name: 'x' }, VM), 'bindings/x.md');
      await assertCorrupt('listBindings', () => b.call('listBindings', { run }, VM), 'bindings/x.md');
      await assertCorrupt('resume', () => b.call('resume', { run }, VM), 'bindings/x.md');
    });
  });
}

test('binding file: an attachment header pointing outside attachments/ or at a missing file is E_CORRUPT', async () => {
  await withRun(async (b, run, dir) => {
    await b.call('bind', { run, name: 'x', kind: 'let', value: 'v' }, sub('x'));
    const file = join(dir, 'bindings', 'x.md');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('kind: let\n', 'kind: let\nattachment: ../../../../etc/passwd\n'));
    await assertCorrupt('escaping attachment', () => b.call('resolve', { run, name: 'x' }, VM), 'bindings/x.md');
    writeFileSync(file, good.replace('kind: let\n', 'kind: let\nattachment: attachments/gone.md\n'));
    await assertCorrupt('missing attachment', () => b.call('resolve', { run, name: 'x' }, VM), 'bindings/x.md');
  });
});

test('binding file: bytes that are not UTF-8 are E_CORRUPT, never read as replacement characters', async () => {
  await withRun(async (b, run, dir) => {
    await b.call('bind', { run, name: 'x', kind: 'let', value: 'v' }, sub('x'));
    const file = join(dir, 'bindings', 'x.md');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from(readFileSync(file, 'utf8').replace(/v$/, '')), Buffer.from([0xff, 0xfe, 0xc3])]),
    );
    await assertCorrupt('resolve', () => b.call('resolve', { run, name: 'x' }, VM), 'bindings/x.md');
  });
});

test('binding file: a file named x.md holding binding y is E_CORRUPT in listBindings', async () => {
  await withRun(async (b, run, dir) => {
    await b.call('bind', { run, name: 'x', kind: 'let', value: 'v' }, sub('x'));
    const file = join(dir, 'bindings', 'x.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^# x\n/, '# y\n'));
    await assertCorrupt('listBindings', () => b.call('listBindings', { run }, VM), 'bindings/x.md');
  });
});

test('state.md: truncated to nothing, to its header, or inside an event line is E_CORRUPT naming state.md', async () => {
  await withRun(async (b, run, dir) => {
    await b.call(
      'recordEvent',
      { run, event: { type: 'statement', index: 1, text: 'let a = session "a"', status: 'executing' } },
      VM,
    );
    await b.call('enterFrame', { run, block: 'process' }, VM);
    const file = join(dir, 'state.md');
    const full = readFileSync(file, 'utf8');
    const lastEvent = full.lastIndexOf('\n- {');
    for (const cut of [0, 1, 10, full.indexOf('\n\n'), lastEvent + 8]) {
      writeFileSync(file, full.slice(0, cut));
      await assertCorrupt(`getRun after a cut at ${cut}`, () => b.call('getRun', { run }, VM), 'state.md');
      await assertCorrupt(`resume after a cut at ${cut}`, () => b.call('resume', { run }, VM), 'state.md');
    }
  });
});

// Regression: JSON lines that are no event were read back as a crash (null), as E_INVALID_ARGUMENT without the
// file (42, "x", [], an unknown type), or silently as events of the wrong shape (missing or mistyped fields).
const WRONG_EVENTS = [
  '- null',
  '- 42',
  '- "x"',
  '- []',
  '- {"type":"nope"}',
  '- {"type":"frame-enter"}',
  '- {"type":"statement","index":"1","text":5,"status":"executing"}',
];

async function resumeWithEventLine(bad: string): Promise<void> {
  await withRun(async (b, run, dir) => {
    await b.call('recordEvent', { run, event: { type: 'statement', index: 1, text: 't', status: 'executing' } }, VM);
    const file = join(dir, 'state.md');
    writeFileSync(file, `${readFileSync(file, 'utf8').replace(/\n$/, '')}\n${bad}\n`);
    await assertCorrupt(`resume with ${bad}`, () => b.call('resume', { run }, VM), 'state.md');
  });
}

for (const bad of WRONG_EVENTS) {
  test(`state.md: the event log line ${bad} is E_CORRUPT naming state.md`, async () => {
    await resumeWithEventLine(bad);
  });
}

test('state.md: a cut that drops whole trailing event lines is not silently read as a shorter history', async () => {
  await withRun(async (b, run, dir) => {
    await b.call('recordEvent', { run, event: { type: 'statement', index: 1, text: 'one', status: 'executing' } }, VM);
    await b.call('recordEvent', { run, event: { type: 'statement', index: 1, text: 'one', status: 'completed' } }, VM);
    const file = join(dir, 'state.md');
    const full = readFileSync(file, 'utf8');
    writeFileSync(file, full.slice(0, full.lastIndexOf('\n- {') + 1));
    await assertCorrupt('resume after losing the last event line', () => b.call('resume', { run }, VM), 'state.md');
  });
});

test('segment file: a broken header, a prompt that is not JSON or a missing Summary is E_CORRUPT naming the file', async () => {
  await withRun(async (b, run, dir) => {
    await b.call(
      'appendSegment',
      { run, agent: 'captain', scope: 'execution', prompt: 'p', summary: 's' },
      agent('captain'),
    );
    const file = join(dir, 'agents', 'captain', 'captain-001.md');
    const good = readFileSync(file, 'utf8');
    for (const bad of [
      good.replace('# Segment 001', '# Segmnt 001'),
      good.replace('prompt: "p"', 'prompt: p'),
      good.replace('## Summary', '## Sumary'),
      good.replace(/\ntimestamp: .*\n/, '\n'),
      '',
    ]) {
      writeFileSync(file, bad);
      await assertCorrupt(
        'listSegments',
        () => b.call('listSegments', { run, agent: 'captain', scope: 'execution' }, VM),
        'captain-001.md',
      );
    }
  });
});

test('receipts: a line with an extra key, a line that is not JSON and a torn last line are E_CORRUPT naming the receipts of the node', async () => {
  await withRun(async (b, run, dir) => {
    await b.call('commitWorldModel', { run, node: 'n', files: { 'truth.json': '{}' }, contract: 'c' }, VM);
    const file = join(dir, 'receipts', 'n.jsonl');
    const good = readFileSync(file, 'utf8');
    const receipt = JSON.parse(good.trim()) as Record<string, unknown>;
    const variants = [
      `${JSON.stringify({ ...receipt, evil: true })}\n`,
      `${good}not json\n`,
      good.slice(0, -1),
      `${JSON.stringify({ ...receipt, sig: { scheme: 'ed25519', null_reason: 'x' } })}\n`,
    ];
    for (const bad of variants) {
      writeFileSync(file, bad);
      await assertCorrupt('listReceipts', () => b.call('listReceipts', { run, node: 'n' }, VM), 'receipts');
      await assertCorrupt(
        'commitWorldModel after',
        () => b.call('commitWorldModel', { run, node: 'n', files: { 'truth.json': '{"v":2}' }, contract: 'c' }, VM),
        'receipts',
      );
    }
    writeFileSync(file, good);
    assert.is(
      (await b.call('listReceipts', { run, node: 'n' }, VM)).receipts.length,
      1,
      'the good ledger reads again and no receipt was appended meanwhile',
    );
  });
});

test('world model: a .version that is not an address and a stored version whose bytes changed are E_CORRUPT', async () => {
  await withRun(async (b, run, dir) => {
    const c = await b.call('commitWorldModel', { run, node: 'n', files: { 'truth.json': '{}' }, contract: 'c' }, VM);
    const versionFile = join(dir, 'world-model', 'n', '.version');
    writeFileSync(versionFile, '../../../etc/passwd\n');
    await assertCorrupt('readPublished', () => b.call('readPublished', { run, node: 'n' }, VM), '.version');
    writeFileSync(versionFile, `${c.version}\n`);
    const bin = join(dir, 'state', 'world-model', 'n', 'versions', `${c.version!.replace(':', '_')}.bin`);
    const bytes = readFileSync(bin);
    bytes[bytes.length - 1] ^= 0x01;
    writeFileSync(bin, bytes);
    await assertCorrupt('readPublished', () => b.call('readPublished', { run, node: 'n' }, VM), c.version!);
    truncateSync(bin, 3);
    await assertCorrupt(
      'readVersion',
      () => b.call('readVersion', { run, node: 'n', version: c.version! }, VM),
      c.version!,
    );
  });
});

test.run();
