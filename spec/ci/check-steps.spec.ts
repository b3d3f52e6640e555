import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the check runner is plain JavaScript (npm run check starts before tsx is loaded)
import { runSteps, STEPS } from '../../scripts/check.mjs';

// `npm run check` (scripts/check.mjs) runs its steps side by side: each step's output must still come out whole and
// a failing step must fail the check by name, whatever finishes first.
const node = process.execPath;
const say = (code: string): [string, string[]] => [node, ['-e', code]];

test('every step runs; each output is whole, a failing or missing step is named, the others still run', async () => {
  let out = '';
  const failed = await runSteps(
    [
      [
        'slow',
        ...say("setTimeout(() => { process.stdout.write('slow one\\n'); process.stderr.write('slow two\\n'); }, 300)"),
      ],
      ['fails', ...say("process.stdout.write('broken because\\n'); process.exit(3)")],
      ['missing', '/nonexistent/tool', []],
      ['quick', ...say("process.stdout.write('quick')")],
    ],
    2,
    (text: string) => (out += text),
  );
  assert.equal(failed.sort(), ['fails', 'missing']);
  assert.match(out, /slow one\nslow two\ncheck: slow ok \[/);
  assert.match(out, /broken because\ncheck: fails FAILED \(exit 3\) \[/);
  assert.match(out, /missing: could not start \/nonexistent\/tool: .*ENOENT.*\ncheck: missing FAILED \(exit 1\)/);
  assert.match(out, /quick\ncheck: quick ok/);
  assert.match(out, /check: 2 of 4 steps failed in [\d.]+ s: (fails, missing|missing, fails)\n$/);
});

test('all passing: one closing line says so; the project steps include the type check and the formatter', async () => {
  let out = '';
  assert.equal(await runSteps([['one', ...say('0')]], 4, (t: string) => (out += t)), []);
  assert.match(out, /check: all 1 steps passed in [\d.]+ s, 1 at once\n$/);
  const names = (STEPS as [string][]).map(([n]) => n);
  for (const n of ['types', 'format', 'layers', 'size', 'decisions doc', 'decision citations', 'plugin types'])
    assert.ok(names.includes(n), n);
});

test.run();
