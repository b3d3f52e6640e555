import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalCache } from '../../../src/backends/filesystem/journal-cache.ts';
import { appendJournalEvent, appendStatus, createJournal } from '../../../src/backends/filesystem/run-journal.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { logOf } from '../../../src/core/event-log.ts';

const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-cache-'));
  createJournal(dir, { runId: 'r1', program: 'p', status: 'running', startedAt: '2026-01-01T00:00:00Z' });
  return dir;
};
const statement = (index: number) => ({
  type: 'statement' as const,
  index,
  text: `s${index}`,
  status: 'completed' as const,
});

test('after the first read, each read parses only the lines appended since', () => {
  const dir = fresh();
  const cache = new JournalCache();
  for (let i = 0; i < 50; i++) appendJournalEvent(dir, statement(i));
  assert.is(cache.read(dir, 'execution.jsonl')!.events.length, 50);
  assert.is(cache.linesParsed, 51);
  for (let i = 50; i < 60; i++) {
    appendJournalEvent(dir, statement(i));
    assert.is(cache.read(dir, 'execution.jsonl')!.events.length, i + 1);
  }
  assert.is(cache.linesParsed, 61, 'ten appends, ten lines parsed');
  appendStatus(dir, 'completed');
  assert.is(cache.read(dir, 'execution.jsonl')!.run.status, 'completed');
  assert.is(cache.read(dir, 'execution.jsonl')!.events.at(-1)!.type, 'statement');
  assert.is(cache.linesParsed, 62, 'an unchanged file parses nothing');
});

test('an earlier line edited in place is seen, whether the file kept its size or grew', () => {
  const dir = fresh();
  const file = join(dir, 'execution.jsonl');
  appendJournalEvent(dir, statement(1));
  const cache = new JournalCache();
  assert.is((cache.read(dir, 'x')!.events[0] as { text: string }).text, 's1');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"s1"', '"s9"'));
  assert.is((cache.read(dir, 'x')!.events[0] as { text: string }).text, 's9', 'same size');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"s9"', '"nope"').replace('"statement"', '"nope"'));
  appendJournalEvent(dir, statement(2));
  try {
    cache.read(dir, 'x');
    assert.unreachable('read a foreign line');
  } catch (err) {
    assert.instance(err, ProseError);
    assert.equal((err as ProseError).location, { file: 'x', line: 2 });
  }
});

test('a torn last line is not read, and is read once its newline arrives; a shorter file is read afresh', () => {
  const dir = fresh();
  const file = join(dir, 'execution.jsonl');
  const cache = new JournalCache();
  appendFileSync(file, '{"status": "fail');
  assert.is(cache.read(dir, 'x')!.run.status, 'running');
  appendFileSync(file, 'ed"}\n');
  assert.is(cache.read(dir, 'x')!.run.status, 'failed');
  writeFileSync(file, `${JSON.stringify({ run: { runId: 'r3', program: 'q', status: 'running', startedAt: 'x' } })}\n`);
  const j = cache.read(dir, 'x')!;
  assert.equal([j.run.runId, j.run.status, j.events.length], ['r3', 'running', 0]);
});

test("the run record a read returns is the caller's to change; the events are the one log, appended to", () => {
  const dir = fresh();
  appendJournalEvent(dir, statement(1));
  const cache = new JournalCache();
  const j = cache.read(dir, 'x')!;
  j.run.status = 'failed';
  appendJournalEvent(dir, statement(2));
  const again = cache.read(dir, 'x')!;
  assert.equal([again.events.length, again.run.status], [2, 'running']);
  assert.ok(logOf(again.events) !== undefined && again.events === j.events, 'the same append-only log, grown');
  assert.is(j.events[0], again.events[0]);
});

test.run();
