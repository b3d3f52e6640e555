import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPS } from '../../src/core/ops.ts';
import { renderProtocolSchema } from '../../src/plugin/protocol-schema-file.ts';

const committed = readFileSync(new URL('../../conformance/schema/protocol.schema.json', import.meta.url), 'utf8');

test('the committed protocol schema equals the one generated from OPS (run scripts/gen-protocol-schema.ts)', () => {
  assert.is(committed, renderProtocolSchema());
});

test('every operation of OPS is a call op and has an args definition', () => {
  const schema = JSON.parse(committed);
  assert.equal(schema.$defs.call.properties.op.enum, Object.keys(OPS));
  assert.equal(Object.keys(schema.$defs.args), Object.keys(OPS));
});

test.run();
