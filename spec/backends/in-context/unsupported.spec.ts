import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import { inContextCompactFactory, inContextFactory } from '../../../src/backends/in-context/index.ts';
import { agent, freshFactory, transcriptOf } from './_helpers.ts';

// What in-context state cannot do is not declared, and calls that need it answer E_UNSUPPORTED.
test('the factories declare durable, world-model, receipts, layout:transcript and both editions, nothing else', () => {
  for (const f of [inContextFactory, inContextCompactFactory]) {
    assert.is(f.kind, 'transcript');
    assert.equal([...f.capabilities].sort(), [
      'durable',
      'edition:current',
      'edition:v0',
      'layout:transcript',
      'receipts',
      'world-model',
    ]);
  }
  assert.is(inContextFactory.name, 'in-context');
  assert.is(inContextCompactFactory.name, 'in-context:compact');
  assert.equal(inContextCompactFactory.settings, { dialect: 'compact', valueEncoding: 'json-string-literal' });
});

test('imports and project, user and custom scopes answer E_UNSUPPORTED and say nothing', async () => {
  const { factory, env } = freshFactory();
  const b = await factory.open(env);
  const { run } = await b.call('createRun', { program: 'p' }, VM);
  const text = await transcriptOf(b);
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: { code: string }) => e.code,
    );
  assert.is(
    await code(b.call('createImport', { run, handle: 'alice', slug: 'research', program: 'q' }, VM)),
    'E_UNSUPPORTED',
  );
  for (const scope of ['project', 'user'] as const) {
    assert.is(
      await code(b.call('writeMemory', { agent: 'captain', scope, memory: 'm' }, agent('captain'))),
      'E_UNSUPPORTED',
    );
  }
  assert.is(
    await code(
      b.call(
        'appendSegment',
        { agent: 'captain', scope: 'custom', path: 'x', prompt: 'p', summary: 's' },
        agent('captain'),
      ),
    ),
    'E_UNSUPPORTED',
  );
  assert.is(await transcriptOf(b), text);
});

test('the storage view is the transcript, as text', async () => {
  const { factory, env } = freshFactory();
  const b = await factory.open(env);
  await b.call('createRun', { runId: '20260115-143052-a7b3c9', program: 'p' }, VM);
  const view = b.storage!();
  assert.is(view.kind, 'transcript');
  assert.match(
    view.kind === 'transcript' ? await view.text() : '',
    /^\[Program\] Program Start \(run: 20260115-143052-a7b3c9/,
  );
});

test.run();
