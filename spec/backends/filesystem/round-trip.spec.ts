import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { formatBindingFile, parseBindingFile } from '../../../src/core/formats/binding-file.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

const VM = { role: 'vm' } as const;
const TRICKY = [
  '',
  '---',
  'before\n---\nafter\n',
  '```prose\nlet x = session "y"\n```\n\n---\n\nnot a separator',
  'windows\r\nline\r\nendings\r\n',
  'trailing newlines\n\n\n',
  'naïve café 日本語 🎉 \u0000 nul and \u202e bidi',
  '# heading\n\nkind: const\nexecution_id: 9\n',
];

test('values holding separators, fences, CRLF and any Unicode read back exactly', async () => {
  const env = tempEnv();
  const b = await filesystemFactory.open(env);
  const { run } = await b.call('createRun', { program: 'x' }, VM);
  for (const [i, value] of TRICKY.entries()) {
    const name = `v${i}`;
    await b.call(
      'bind',
      { run, name, kind: 'let', value, source: 'let v = session "```"\n```nested```' },
      { role: 'subagent', binding: name },
    );
    const r = await b.call('resolve', { run, name }, VM);
    assert.is(r.value, value, `value ${i}`);
  }
  await b.close();
  env.cleanup();
});

test('the binding file is in the seed format', async () => {
  const env = tempEnv();
  const b = await filesystemFactory.open(env);
  const { run } = await b.call('createRun', { program: 'x' }, VM);
  const f = await b.call('enterFrame', { run, block: 'process' }, VM);
  await b.call(
    'bind',
    {
      run,
      name: 'result',
      kind: 'let',
      value: 'Processed chunk into 3 sub-parts...',
      executionId: f.executionId,
      source: 'let result = session "Process chunk"',
    },
    { role: 'subagent', binding: 'result', executionId: 1 },
  );
  const text = readFileSync(join(env.projectDir, '.prose/runs', run, 'bindings/result__1.md'), 'utf8');
  assert.is(
    text,
    '# result\n\nkind: let\nexecution_id: 1\n\nsource:\n```prose\nlet result = session "Process chunk"\n```\n\n---\n\nProcessed chunk into 3 sub-parts...',
  );
  await b.close();
  env.cleanup();
});

test('property: parse(format(x)) = x for generated bindings', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
  fc.assert(
    fc.property(
      name,
      fc.constantFrom('input', 'output', 'let', 'const'),
      fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: null }),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary' }),
      (n, kind, id, source, value) => {
        const file = { name: n, kind: kind as 'let', executionId: id, source: source.replace(/\r?\n$/, ''), value };
        assert.equal(parseBindingFile(formatBindingFile(file)), file);
      },
    ),
    { numRuns: 300 },
  );
});

test.run();
