import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv } from 'ajv';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { OPS, type OpName } from '../../src/core/ops.ts';
import { buildProtocolSchema } from '../../src/plugin/protocol-schema.ts';
import { fakeFactory } from '../helpers/fake-backends.ts';

// The other direction of the result schemas: RESULTS_AGREE ties them to the TypeScript types at compile time; here
// every result the filesystem backend answers across the suite's areas must validate against $defs/results/<op>,
// and every event a case records successfully against $defs/event.
const schema = buildProtocolSchema();
const ajv = new Ajv({ allErrors: true, discriminator: true, strict: false });
ajv.addSchema(schema);
const validatorOf = (def: string) => ajv.getSchema(`${String(schema.$id)}#/$defs/${def}`)!;

test('every result the filesystem backend gives in the suite matches the protocol schema, and every op is seen', async () => {
  const seen = new Set<OpName>();
  const problems: string[] = [];
  const checked = fakeFactory('schema-checked', async (op, args, actor, real) => {
    const r = await real.call(op, args as never, actor);
    seen.add(op);
    const v = validatorOf(`results/${op}`);
    if (!v(r)) problems.push(`${op}: ${ajv.errorsText(v.errors)} in ${JSON.stringify(r).slice(0, 200)}`);
    if (op === 'recordEvent') {
      const e = validatorOf('event');
      if (!e((args as { event: unknown }).event))
        problems.push(
          `recordEvent accepted an event the schema refuses: ${JSON.stringify(args)}: ${ajv.errorsText(e.errors)}`,
        );
    }
    return r;
  });
  const suite = builtinSuite();
  const areas = [
    'run-ids',
    'bindings',
    'execution',
    'resume',
    'imports',
    'agent-memory',
    'segment-numbering',
    'anon-naming',
    'envelope',
    'world-model',
    'receipts',
  ];
  const results = await runSuite({
    suite,
    factories: [checked],
    decisions: { ...DEFAULT_DECISIONS },
    filter: { areas, ids: [] },
    listener: { header() {}, result() {}, footer() {} },
  });
  assert.equal(problems, []);
  assert.equal(
    results.filter((r) => r.outcome.status !== 'passed' && r.outcome.status !== 'skipped').map((r) => r.id),
    [],
  );
  assert.equal(
    Object.keys(OPS).filter((op) => !seen.has(op as OpName)),
    [],
  );
});

test('a result missing a field or with a wrong type fails its schema, naming the field', () => {
  const v = validatorOf('results/resume');
  assert.not.ok(
    v({
      run: 'r',
      status: 'running',
      position: null,
      bindings: [],
      callStack: [],
      parallels: {},
      loops: {},
      retries: {},
      errors: [],
      nextExecutionId: 1,
    }),
  );
  assert.match(ajv.errorsText(v.errors), /anonCount/);
  assert.not.ok(validatorOf('results/allocateAnon')({ name: 1 }));
  assert.ok(validatorOf('results/setRunStatus')({}));
});

test('an event with an unknown field, a missing one or a value outside its enum fails $defs/event', () => {
  const e = validatorOf('event');
  assert.ok(e({ type: 'loop-exit', id: 'l', reason: 'max' }));
  assert.not.ok(e({ type: 'loop-exit', id: 'l', reason: 'done' }));
  assert.not.ok(e({ type: 'loop-exit', id: 'l', reason: 'max', why: 'x' }));
  assert.not.ok(e({ type: 'statement', index: 1, text: 't' }));
  assert.not.ok(e({ type: 'statement', index: -1, text: 't', status: 'executing' }));
});

test.run();
