import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { expectUsage } from './expect-usage.ts';
import { parseBenchOptions } from '../../src/cli/commands/bench.ts';
import { parseWorkerOptions } from '../../src/cli/commands/worker.ts';

// What bench and worker read from argv and the environment, checked without running either.
const usage = expectUsage;

test('bench: defaults, the environment twins, and each option read', () => {
  const d = parseBenchOptions([], {});
  assert.equal('rssProbe' in d ? undefined : [d.quick, d.format, d.tolerance, d.candidates, d.only], [
    false,
    'text',
    0.15,
    [],
    undefined,
  ]);
  const e = parseBenchOptions(['--only', 'backends', '--tolerance', '0.5', '--backend', 'sqlite'], {
    PROSE_STATE_BENCH_QUICK: '1',
  });
  assert.equal('rssProbe' in e ? undefined : [e.quick, e.only, e.tolerance, e.backends], [
    true,
    'backends',
    0.5,
    ['sqlite'],
  ]);
});

test('bench: the RSS probe child is its own value; bad values and unknown options are usage errors by name', () => {
  assert.equal(parseBenchOptions(['--rss-probe', 'd', '--rss-parallel'], {}), { rssProbe: 'd', rssParallel: true });
  usage(() => parseBenchOptions(['--format', 'xml'], {}), /--format takes/);
  usage(() => parseBenchOptions(['--tolerance', '-1'], {}), /--tolerance/);
  usage(() => parseBenchOptions(['--candidate-timeout', '0'], {}), /--candidate-timeout/);
  usage(() => parseBenchOptions(['--only', 'receipts'], {}), /--only/);
  usage(() => parseBenchOptions(['extra'], {}), /unexpected argument "extra"/);
  usage(() => parseBenchOptions(['--fast'], {}), /'--fast'/);
});

test('worker: argv and the backend environment read; each missing piece named', () => {
  const env = { PROSE_STATE_WORKER_BACKEND: 'filesystem', PROSE_STATE_WORKER_ENV: '{"projectDir":"/p"}' };
  const o = parseWorkerOptions(['--workload', 'bindings', '--run', 'r1', '--writer', '2', '--count', '5'], env);
  assert.equal(
    [o.workload, o.run, o.writer, o.count, o.start, o.backend, o.env.projectDir],
    ['bindings', 'r1', 2, 5, undefined, 'filesystem', '/p'],
  );
  usage(() => parseWorkerOptions(['--workload', 'nope', '--run', 'r'], env), /--workload must be one of/);
  usage(() => parseWorkerOptions(['--workload', 'bindings'], env), /worker needs --run/);
  usage(() => parseWorkerOptions(['--workload', 'bindings', '--run', 'r'], {}), /PROSE_STATE_WORKER_BACKEND/);
});

test('worker: the edition the runner judges reaches the worker in its env; an unknown one is refused by name', () => {
  const argv = ['--workload', 'bindings', '--run', 'r1'];
  const withEdition = (edition: string) => ({
    PROSE_STATE_WORKER_BACKEND: 'filesystem',
    PROSE_STATE_WORKER_ENV: JSON.stringify({ projectDir: '/p', edition }),
  });
  assert.is(parseWorkerOptions(argv, withEdition('current')).env.edition, 'current');
  usage(() => parseWorkerOptions(argv, withEdition('v7')), /PROSE_STATE_WORKER_ENV: unknown edition "v7"/);
});

test.run();
