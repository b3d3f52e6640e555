import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { runCli as run } from '../helpers/run-cli.ts';

// Two cheap areas on two backends, probes on: the merge must rebuild headers, capabilities, cases and footers.
const dir = mkdtempSync(join(tmpdir(), 'prose-shards-'));
// v0 alone: the shares and matrices below count one run per backend, and the filesystem backend also declares the
// current edition, which the default --edition all would judge as a second run.
const RUN = [
  'test',
  '--backend',
  'filesystem',
  '--backend',
  'in-context',
  '--edition',
  'v0',
  '--area',
  'names',
  '--area',
  'run-ids',
];
const SEED = ['--seed', '4242'];

async function save(name: string, argv: string[]): Promise<string> {
  const r = await run(argv);
  assert.is(r.code, 0, r.err);
  writeFileSync(join(dir, name), r.out);
  return join(dir, name);
}

/** The report's records without the times, which differ between any two runs. */
function records(text: string): unknown[] {
  return text
    .trim()
    .split('\n')
    .map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      delete o.durationMs;
      return o;
    });
}

const shards: string[] = [];
let whole = '';

test('four shards each run a share, recorded in the header, and together every case once', async () => {
  whole = await save('whole.jsonl', [...RUN, ...SEED, '--reporter', 'json']);
  for (let i = 1; i <= 4; i++)
    shards.push(await save(`shard-${i}.jsonl`, [...RUN, ...SEED, '--shard', `${i}/4`, '--reporter', 'json']));
  const ids = shards.flatMap((f) =>
    records(readFileSync(f, 'utf8')).flatMap((r) => {
      const o = r as { type: string; backend: string; id: string; shard?: unknown };
      return o.type === 'case' ? [`${o.backend} ${o.id}`] : [];
    }),
  );
  const wholeIds = records(readFileSync(whole, 'utf8')).flatMap((r) => {
    const o = r as { type: string; backend: string; id: string };
    return o.type === 'case' ? [`${o.backend} ${o.id}`] : [];
  });
  // names and run-ids on two backends (run-ids/generated-id-is-the-utc-now joined them with the zones).
  assert.is(wholeIds.length, 80);
  assert.equal([...ids].sort(), [...wholeIds].sort());
  const header = records(readFileSync(shards[2]!, 'utf8'))[0] as { shard: unknown; seed: number };
  assert.equal(header.shard, { index: 3, count: 4 });
  assert.is(header.seed, 4242);
  const schema = JSON.parse(
    readFileSync(new URL('../../conformance/schema/report.schema.json', import.meta.url), 'utf8'),
  );
  const validate = new Ajv({ discriminator: true, allErrors: true }).compile(schema);
  for (const line of readFileSync(shards[2]!, 'utf8').trim().split('\n'))
    assert.ok(validate(JSON.parse(line)), JSON.stringify(validate.errors));
});

test('the four shards merged equal the unsharded run, apart from durations', async () => {
  const r = await run(['report', 'merge', ...[...shards].reverse(), '--reporter', 'json']);
  assert.is(r.code, 0, r.err);
  assert.equal(records(r.out), records(readFileSync(whole, 'utf8')));
});

test('shards balanced by the durations of an earlier report also merge into the unsharded run', async () => {
  const parts = [];
  for (let i = 1; i <= 2; i++)
    parts.push(
      await save(`timed-${i}.jsonl`, [
        ...RUN,
        ...SEED,
        '--shard',
        `${i}/2`,
        '--durations',
        whole,
        '--reporter',
        'json',
      ]),
    );
  const r = await run(['report', 'merge', ...parts, '--reporter', 'json']);
  assert.is(r.code, 0, r.err);
  assert.equal(records(r.out), records(readFileSync(whole, 'utf8')));
  const pretty = await run([...RUN, ...SEED, '--shard', '2/2', '--durations', whole, '--no-probe']);
  assert.match(pretty.out, /seed: 4242; TZ [\w/]+; shard 2\/2/);
});

test('merge writes every format with --report-dir, the same matrix as the unsharded run', async () => {
  const out = join(dir, 'merged');
  const r = await run(['report', 'merge', ...shards, '--report-dir', out]);
  assert.is(r.code, 0, r.err);
  assert.equal(readdirSync(out).sort(), ['report.html', 'report.jsonl', 'report.junit.xml', 'report.md', 'report.tap']);
  const pretty = await run([...RUN, ...SEED, '--no-probe']);
  const matrix = (s: string) => s.slice(s.indexOf('Compliance matrix'), s.indexOf('conformance:'));
  assert.is(matrix(r.out), matrix(pretty.out));
  assert.match(matrix(r.out), /names\s+19\/19\s+16\/16 3s/);
});

test('a missing shard, a doubled one or another seed is refused, naming the file and what to do', async () => {
  const missing = await run(['report', 'merge', shards[0]!, shards[1]!, shards[3]!]);
  assert.is(missing.code, 2);
  assert.match(missing.err, /E_USAGE/);
  assert.match(missing.err, /shard 3\/4 missing/);
  const doubled = await run(['report', 'merge', shards[0]!, shards[0]!, shards[2]!, shards[3]!]);
  assert.is(doubled.code, 2);
  assert.match(doubled.err, /shard-1\.jsonl.*it is shard 1\/4, like .*shard-1\.jsonl/);
  const other = await save('other-seed.jsonl', [...RUN, '--seed', '1', '--shard', '2/4', '--reporter', 'json']);
  const seeds = await run(['report', 'merge', shards[0]!, other, shards[2]!, shards[3]!]);
  assert.is(seeds.code, 2);
  assert.match(seeds.err, /other-seed\.jsonl:1: .*its seed \(1\) differs/);
  assert.match(seeds.err, /hint: merge only the shards of one CI run/);
});

test('other decisions or another suite version are refused', async () => {
  const text = readFileSync(shards[1]!, 'utf8');
  const decisions = join(dir, 'decisions.jsonl');
  writeFileSync(decisions, text.replace('"attachmentThresholdBytes":102400', '"attachmentThresholdBytes":5'));
  const d = await run(['report', 'merge', shards[0]!, decisions, shards[2]!, shards[3]!]);
  assert.is(d.code, 2);
  assert.match(d.err, /decisions\.jsonl:1: .*its decisions .* differs/);
  const version = join(dir, 'version.jsonl');
  writeFileSync(version, text.replaceAll('"version":"0.1.0"', '"version":"9.9.9"'));
  const v = await run(['report', 'merge', shards[0]!, version, shards[2]!, shards[3]!]);
  assert.is(v.code, 2);
  assert.match(v.err, /version\.jsonl:1: .*its suite version \(prose-state-conformance 9\.9\.9\) differs/);
});

test('a shard cut off before its footer is an error of the merge, not a hole (exit 3)', async () => {
  const lines = readFileSync(shards[1]!, 'utf8').trim().split('\n');
  const cut = join(dir, 'cut.jsonl');
  writeFileSync(cut, lines.slice(0, -2).join('\n') + '\n');
  const r = await run(['report', 'merge', shards[0]!, cut, shards[2]!, shards[3]!]);
  assert.is(r.code, 3);
  assert.match(r.err, /E_FORMAT at .*cut\.jsonl:\d+: the run of backend in-context .* was cut off: it has no footer/);
  // A kill in the middle of a line leaves half a record: still a cut-off run, not a parse error.
  const torn = join(dir, 'torn.jsonl');
  writeFileSync(torn, lines.slice(0, -1).join('\n') + '\n' + lines.at(-1)!.slice(0, 20));
  const t = await run(['report', 'merge', shards[0]!, torn, shards[2]!, shards[3]!]);
  assert.is(t.code, 3);
  assert.match(t.err, /torn\.jsonl:\d+: the run of backend in-context .* was cut off/);
});

test('shards that overlap are refused with the case named', async () => {
  const text = readFileSync(shards[0]!, 'utf8');
  const twin = join(dir, 'twin.jsonl');
  writeFileSync(twin, text.replaceAll('"shard":{"index":1,"count":4}', '"shard":{"index":2,"count":4}'));
  const r = await run(['report', 'merge', shards[0]!, twin, shards[2]!, shards[3]!]);
  assert.is(r.code, 2);
  assert.match(r.err, /twin\.jsonl:\d+: .*case \S+ on filesystem is also in .*shard-1\.jsonl: the shards overlap/);
});

test('--shard and --durations refuse bad input', async () => {
  const bad = await run([...RUN, '--shard', '5/4']);
  assert.is(bad.code, 2);
  assert.match(bad.err, /--shard takes I\/N with 1 <= I <= N, got "5\/4"/);
  const unseeded = await run([...RUN, '--shard', '4/4', '--no-probe']);
  assert.is(unseeded.code, 0);
  assert.match(unseeded.err, /note: --shard without --seed: .*give every shard the same --seed/);
  const alone = await run([...RUN, '--durations', whole]);
  assert.is(alone.code, 2);
  assert.match(alone.err, /--durations balances shards/);
  const unreadable = await run([...RUN, '--shard', '1/2', '--durations', join(dir, 'nope.jsonl')]);
  assert.is(unreadable.code, 3);
  assert.match(unreadable.err, /E_FORMAT at .*nope\.jsonl: cannot read the report/);
});

test.run();
