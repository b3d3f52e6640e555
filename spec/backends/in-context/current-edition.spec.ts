import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import { parseTranscript } from '../../../src/transcript/parse-transcript.ts';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';
import { transcriptEdition } from '../../../src/verify/transcript/transcript-edition.ts';
import { freshFactory, runScript, snapshot, transcriptOf } from './_helpers.ts';

// The current edition's narration (decisions in-context-current-forms, in-context-current-ledger): compact markers and
// the text's run words whichever dialect the factory was made with; one chain per node for the whole conversation.
const V0_LINES = /^\s*\[(?:Program|Position|Success|Frame[+-]|Parallel|Loop|Try|Flow)\]/m;

async function currentScript(dialect: 'verbose' | 'compact') {
  const { factory, env } = freshFactory({ dialect });
  const b = await factory.open({ ...env, edition: 'current' });
  const run = await runScript(b);
  return { b, run, text: await transcriptOf(b) };
}

for (const dialect of ['verbose', 'compact'] as const) {
  test(`${dialect} factory, current edition: run words and compact markers, read as current, no finding`, async () => {
    const { text } = await currentScript(dialect);
    assert.match(
      text,
      /^OpenProse Run Start \(run: 20260115-143052-a7b3c9, started: [^)]+\)\n {3}State mode: in-context\n/,
    );
    assert.match(text, /\n {3}Root: "let research = session \\"x\\"\\n---\\n"\n {3}Root path: "demo\.prose"\n/);
    assert.ok(text.endsWith('\n---end (run: 20260115-143052-a7b3c9)\n'), text.slice(-80));
    assert.not.match(text, V0_LINES);
    const parsed = parseTranscript(text);
    assert.equal(parsed.diagnostics, []);
    assert.is(transcriptEdition(parsed).edition, 'current');
    assert.equal(checkTranscript(text), []);
  });
}

test('both factories narrate the current edition alike', async () => {
  const at = (t: string) => t.replace(/started: [^)]+/g, 'started: T');
  assert.is(at((await currentScript('verbose')).text), at((await currentScript('compact')).text));
});

test('what the current narration says reads back after a restart as it was answered', async () => {
  const { factory, env } = freshFactory();
  const cur = { ...env, edition: 'current' as const };
  const b = await factory.open(cur);
  const run = await runScript(b);
  const before = await snapshot(b, run);
  await b.close();
  assert.equal(await snapshot(await factory.open(cur), run), before);
});

test('v0 keeps its own conversation under the same storage key, in its own words', async () => {
  const { factory, env } = freshFactory({ dialect: 'compact' });
  const cur = await factory.open({ ...env, edition: 'current' });
  await cur.call('createRun', { program: 'p' }, VM);
  const v0 = await factory.open(env);
  assert.is(await transcriptOf(v0), '');
  await v0.call('createRun', { program: 'p' }, VM);
  assert.match(await transcriptOf(v0), /^\[Program\] Program Start \(run: /);
  assert.match(await transcriptOf(cur), /^OpenProse Run Start \(run: /);
});

async function secondRunPrev(edition: 'v0' | 'current') {
  const { factory, env } = freshFactory();
  const b = await factory.open({ ...env, edition });
  const files = { 'truth.json': '{}' };
  const { run } = await b.call('createRun', { program: 'one' }, VM);
  const first = await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files }, VM);
  const { run: other } = await b.call('createRun', { program: 'two' }, VM);
  const second = await b.call('commitWorldModel', { run: other, node: 'n', contract: 'c', files }, VM);
  const published = await b.call('readPublished', { run: other, node: 'n' }, VM);
  return { first, second, published };
}

test('current: a later run of the conversation continues the node chain and skips what moved nothing', async () => {
  const { first, second, published } = await secondRunPrev('current');
  assert.is(second.prev, first.contentHash);
  assert.is(second.status, 'skipped');
  assert.is(second.version, first.version);
  assert.is(published.version, first.version);
});

test('v0: each run keeps its own chain, from prev null', async () => {
  const { second } = await secondRunPrev('v0');
  assert.is(second.prev, null);
  assert.is(second.status, 'rendered');
});

test.run();
