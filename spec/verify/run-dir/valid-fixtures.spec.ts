import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { verifyPath } from '../../../src/verify/registry.ts';
import { FIXTURES, RUN_ID } from './fixture-copy.ts';

const PROSE = join(FIXTURES, 'valid', '.prose');
const HOME = join(FIXTURES, 'valid-home');
const RUN = join(PROSE, 'runs', RUN_ID);

test('the seed examples, laid out by hand, verify with no finding as a project, a .prose dir, a run and an import', async () => {
  for (const [path, kind] of [
    [join(FIXTURES, 'valid'), 'prose-dir'],
    [PROSE, 'prose-dir'],
    [RUN, 'run-dir'],
    [join(RUN, 'imports', 'alice--summarizer'), 'run-dir'],
  ] as const) {
    const r = await verifyPath(path, { homeDir: HOME });
    assert.is(r.kind, kind, path);
    assert.equal(r.findings, [], path);
  }
});

test.run();
