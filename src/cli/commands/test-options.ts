import { ProseError } from '../../core/errors.ts';
import { parseOptions } from '../args.ts';

/** `test`'s options as given: strings where the plan checks them (so --explain ignores those it does not use). */
export interface TestOptions {
  backends?: string[];
  /** --edition as given (v0, current or all; the plan checks it). */
  edition?: string;
  areas?: string[];
  cases?: string[];
  reporter: string;
  reportDir?: string;
  suite?: string;
  expect?: string;
  /** --decision K=V, read; `decisionGiven` says whether any was given (a rerun replays the report's otherwise). */
  decisions: Record<string, number | string>;
  decisionGiven: boolean;
  timeout?: string;
  seed?: string;
  /** --tz as given (an IANA zone the backends run under; the plan checks it). */
  tz?: string;
  probe: boolean;
  jobs?: string;
  quick: boolean;
  bail: boolean;
  verbose: boolean;
  explain?: string;
  shard?: string;
  durations?: string;
  rerunFailed?: string;
  /** --deadline SECONDS, checked: the whole run's time limit in milliseconds. */
  deadlineMs?: number;
}

const SPEC = {
  backend: { type: 'string', multiple: true, env: 'PROSE_STATE_BACKEND' },
  edition: { type: 'string', env: 'PROSE_STATE_EDITION' },
  area: { type: 'string', multiple: true },
  case: { type: 'string', multiple: true },
  reporter: { type: 'string', env: 'PROSE_STATE_REPORTER' },
  'report-dir': { type: 'string' },
  suite: { type: 'string', env: 'PROSE_STATE_SUITE_DIR' },
  expect: { type: 'string', env: 'PROSE_STATE_EXPECT' },
  decision: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  seed: { type: 'string', env: 'PROSE_STATE_SEED' },
  tz: { type: 'string', env: 'PROSE_STATE_TZ' },
  'no-probe': { type: 'boolean', env: 'PROSE_STATE_NO_PROBE' },
  jobs: { type: 'string', env: 'PROSE_STATE_JOBS' },
  quick: { type: 'boolean' },
  bail: { type: 'boolean' },
  verbose: { type: 'boolean' },
  explain: { type: 'string' },
  shard: { type: 'string' },
  durations: { type: 'string' },
  'rerun-failed': { type: 'string' },
  deadline: { type: 'string', env: 'PROSE_STATE_DEADLINE' },
} as const;

/** Reads `test`'s argv (and the environment twins); an unknown option is a usage error naming it. */
export function parseTestOptions(argv: string[], env: Record<string, string | undefined>): TestOptions {
  const { values } = parseOptions(argv, SPEC, env);
  const str = (name: keyof typeof SPEC) => values[name] as string | undefined;
  const list = (name: keyof typeof SPEC) => values[name] as string[] | undefined;
  return {
    backends: list('backend'),
    edition: str('edition'),
    areas: list('area'),
    cases: list('case'),
    reporter: str('reporter') ?? 'pretty',
    reportDir: str('report-dir') || undefined,
    suite: str('suite'),
    expect: str('expect') || undefined,
    decisions: decisionOverrides(list('decision') ?? []),
    decisionGiven: values.decision !== undefined,
    timeout: str('timeout'),
    seed: str('seed'),
    tz: str('tz') || undefined,
    probe: !values['no-probe'],
    jobs: str('jobs'),
    quick: !!values.quick,
    bail: !!values.bail,
    verbose: !!values.verbose,
    explain: str('explain'),
    shard: str('shard'),
    durations: str('durations'),
    rerunFailed: str('rerun-failed') || undefined,
    ...(str('deadline') !== undefined ? { deadlineMs: deadlineMs(str('deadline')!) } : {}),
  };
}

/** `--deadline SECONDS`: a positive decimal number of seconds, else a usage error quoting it. */
function deadlineMs(given: string): number {
  const ms = Math.round(Number(given) * 1000);
  if (!/^\d+(\.\d+)?$/.test(given) || !(ms > 0) || !Number.isSafeInteger(ms))
    throw new ProseError('E_USAGE', `--deadline must be a positive number of seconds, got ${JSON.stringify(given)}`);
  return ms;
}

/** `--decision KEY=NUMBER` or `KEY=READING` (skip-rule=before-render); anything else is a usage error quoting it. */
function decisionOverrides(given: string[]): Record<string, number | string> {
  return Object.fromEntries(
    given.map((kv) => {
      const [k, v] = kv.split('=');
      if (!k || v === undefined || !/^(\d+|[a-z][a-z-]*)$/.test(v))
        throw new ProseError('E_USAGE', `--decision takes KEY=NUMBER or KEY=READING, got ${JSON.stringify(kv)}`);
      return [k, /^\d+$/.test(v) ? Number(v) : v];
    }),
  );
}
