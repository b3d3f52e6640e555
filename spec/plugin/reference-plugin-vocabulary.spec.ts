import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPS } from '../../src/core/ops.ts';
// @ts-expect-error plain JavaScript without type declarations, on purpose (the plugin depends on nothing here)
import { OPS as REFERENCE_OPS } from '../../conformance/plugins/reference/checks.js';
// @ts-expect-error as above
import { CAPABILITIES as REFERENCE_CAPS } from '../../conformance/plugins/reference/backend.js';

const reference = REFERENCE_OPS as Record<
  string,
  { writer: string; args: Record<string, { type: string; optional?: boolean }>; capability?: string }
>;
const declared = new Set(REFERENCE_CAPS as string[]);

test('the reference plugin knows every operation it must answer (all but those of capabilities it does not declare)', () => {
  const needed = Object.entries(OPS)
    .filter(([, s]) => !s.capability || declared.has(s.capability))
    .map(([op]) => op);
  assert.equal(
    needed.filter((op) => !(op in reference)),
    [],
    'add these operations to conformance/plugins/reference/',
  );
});

test('its argument table and writers match the vocabulary', () => {
  for (const [op, spec] of Object.entries(reference)) {
    const core = OPS[op as keyof typeof OPS];
    assert.ok(core, `reference knows ${op}, which OPS does not`);
    assert.is(spec.writer, core.writer, `${op} writer`);
    assert.is(spec.capability, core.capability, `${op} capability`);
    const types = (args: Record<string, { type: string; optional?: boolean }>) =>
      Object.fromEntries(
        Object.entries(args).map(([k, v]) => [k, `${v.type === 'event' ? 'object' : v.type}${v.optional ? '?' : ''}`]),
      );
    assert.equal(types(spec.args), types(core.args), `${op} args`);
  }
});

test.run();
