import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CURRENT_RUN_OWN_RULES, CURRENT_RUN_RULES } from '../../../src/verify/current-run/rules.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyCurrent } from './current-copy.ts';
import { CURRENT_MUTATIONS } from './current-mutations.ts';

test('every current-run rule has a break in the corpus', () => {
  const covered = new Set<string>(CURRENT_MUTATIONS.map((m) => m.rule));
  assert.equal(
    Object.keys(CURRENT_RUN_RULES).filter((r) => !covered.has(r)),
    [],
  );
});

for (const m of CURRENT_MUTATIONS) {
  test(`${m.rule}: ${m.what} is caught by ${m.rule} and nothing else`, async () => {
    const c = copyCurrent();
    try {
      m.apply(c);
      const { kind, findings } = await verifyPath(m.root ? c.root : c.run, { kind: 'current-run' });
      assert.is(kind, 'current-run');
      const rules = [...new Set(findings.map((f) => f.rule))].sort();
      assert.equal(rules, [m.rule, ...(m.also ?? [])].sort(), JSON.stringify(findings, null, 1));
      const hit = findings.find((f) => f.rule === m.rule)!;
      assert.is(hit.severity, CURRENT_RUN_RULES[m.rule].severity);
      if (m.rule in CURRENT_RUN_OWN_RULES) assert.ok(hit.hint, 'every finding of an own rule carries a hint');
      if (m.file) assert.is(hit.file, m.file);
    } finally {
      c.cleanup();
    }
  });
}

test.run();
