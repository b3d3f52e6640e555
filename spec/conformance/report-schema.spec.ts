import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, rmSync } from 'node:fs';
import { Ajv } from 'ajv';
import { main } from '../../src/cli/main.ts';
import { VERDICTS } from '../../src/conformance/probes/capability-verdict.ts';
import { captureIo, PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

const schema = JSON.parse(
  readFileSync(new URL('../../conformance/schema/report.schema.json', import.meta.url), 'utf8'),
);
const validate = new Ajv({ discriminator: true, allErrors: true }).compile(schema);

const suiteDir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });

async function records(extra: string[]): Promise<Record<string, unknown>[]> {
  const c = captureIo();
  await main(
    ['test', '--backend', 'filesystem', '--backend', 'in-context', '--suite', suiteDir, '--reporter', 'json', ...extra],
    c.io,
  );
  return c
    .out()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

test('every record of a real JSON Lines report is valid against conformance/schema/report.schema.json', async () => {
  for (const extra of [[], ['--no-probe']]) {
    const rs = await records(extra);
    assert.ok(rs.some((r) => r.type === 'capabilities') === (extra.length === 0));
    for (const r of rs)
      assert.ok(validate(r), `${JSON.stringify(validate.errors)}\n${JSON.stringify(r).slice(0, 500)}`);
  }
});

test('the schema refuses a capabilities record with an unknown verdict or field', () => {
  const good = {
    type: 'capabilities',
    backend: 'b',
    durationMs: 1,
    counts: Object.fromEntries(VERDICTS.map((v) => [v, 0])),
    verdicts: [{ capability: 'durable', declared: true, works: true, verdict: 'ok' }],
  };
  assert.ok(validate(good), JSON.stringify(validate.errors));
  assert.not.ok(
    validate({ ...good, verdicts: [{ capability: 'durable', declared: true, works: true, verdict: 'fine' }] }),
  );
  assert.not.ok(validate({ ...good, surprise: 1 }));
});

test('the schema lists exactly the verdicts the prober gives', () => {
  assert.equal(schema.$defs.verdict.properties.verdict.enum, [...VERDICTS]);
  assert.equal(schema.$defs.capabilities.properties.counts.required, [...VERDICTS]);
});

test.after(() => rmSync(suiteDir, { recursive: true, force: true }));
test.run();
