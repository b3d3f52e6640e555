import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RUN_DIR_RULES } from '../../../src/verify/run-dir/rules.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyValid } from './fixture-copy.ts';
import { RUN_DIR_MUTATIONS } from './run-dir-mutations.ts';

test('every run-dir rule has a mutation in the broken corpus', () => {
  const covered = new Set(RUN_DIR_MUTATIONS.map((m) => m.rule));
  assert.equal(
    Object.keys(RUN_DIR_RULES).filter((r) => !covered.has(r as never)),
    [],
  );
});

for (const m of RUN_DIR_MUTATIONS) {
  test(`${m.rule}: ${m.what} is caught by ${m.rule} and nothing else`, async () => {
    const c = copyValid();
    try {
      m.apply(c);
      const { findings } = await verifyPath(c.prose, { homeDir: c.home });
      const rules = [...new Set(findings.map((f) => f.rule))].sort();
      assert.equal(rules, [m.rule, ...(m.also ?? [])].sort(), JSON.stringify(findings, null, 1));
      const hit = findings.find((f) => f.rule === m.rule)!;
      assert.is(hit.severity, RUN_DIR_RULES[m.rule].severity);
      assert.ok(hit.hint, 'every finding carries a hint');
      if (m.file) assert.is(hit.file, m.file);
    } finally {
      c.cleanup();
    }
  });
}

test.run();
