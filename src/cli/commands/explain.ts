import { resolveBackends } from '../backend-kinds.ts';
import type { Decisions } from '../../core/decisions.ts';
import { ProseError } from '../../core/errors.ts';
import type { Case, Suite } from '../../conformance/case-types.ts';
import {
  explainHeader,
  explainObserver,
  explainOutcome,
  tracedFactory,
  wireLine,
} from '../../conformance/explain-case.ts';
import { editionRuns, type EditionChoice } from '../../conformance/edition-runs.ts';
import { countOutcomes, exitCodeFor, type CaseResult } from '../../conformance/outcome.ts';
import { runSuite } from '../../conformance/run-suite.ts';
import type { CliIo } from '../io.ts';

/** The case --explain names, or a usage error listing cases of its area. */
function caseNamed(suite: Suite, id: string): Case {
  const c = suite.cases.find((x) => x.id === id);
  if (c) return c;
  const near = suite.cases
    .filter((x) => x.id.startsWith(id.split('/')[0] ?? id))
    .slice(0, 8)
    .map((x) => x.id);
  throw new ProseError('E_USAGE', `--explain: no case "${id}"`, {
    hint: near.length ? `cases of that area: ${near.join(', ')}` : 'prose-state test --verbose lists every case id',
  });
}

/**
 * `test --explain CASE`: one case on one backend, printed step by step with every protocol message and reply
 * (docs/implementing.md shows how to replay them). Capability probes are not run; the exit code is the case's.
 */
export async function explainCase(
  id: string,
  backends: string[] | undefined,
  suite: Suite,
  decisions: Decisions,
  io: CliIo,
  timeout: string | undefined,
  edition: EditionChoice,
): Promise<number> {
  const c = caseNamed(suite, id);
  if (!backends || backends.length !== 1 || backends[0] === 'all') {
    throw new ProseError(
      'E_USAGE',
      '--explain takes exactly one --backend (for example exec:./my-plugin or filesystem)',
    );
  }
  const stepTimeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (stepTimeoutMs !== undefined && !(Number.isSafeInteger(stepTimeoutMs) && stepTimeoutMs > 0))
    throw new ProseError('E_USAGE', '--timeout takes a positive number of milliseconds');
  const write = (line: string) => {
    io.stdout.write(`${line}\n`);
  };
  const spec = backends[0]!;
  const exec = spec.startsWith('exec:');
  // The factory's own handshake (the process that tells what the plugin declares) is printed too.
  if (exec) write('# the handshake that learns what the plugin declares (that process then ends):');
  const [found] = await resolveBackends(spec, {
    env: io.env,
    cwd: io.cwd,
    suiteVersion: suite.version,
    wire: (d, line) => write(wireLine(d, line)),
  });
  if (!found) throw new ProseError('E_USAGE', `--explain: backend ${spec} resolved to nothing`);
  const results: CaseResult[] = [];
  // One explanation per edition judged (--edition all: each edition the backend declares).
  for (const judged of editionRuns([exec ? found : tracedFactory(found, write)], edition).judged) {
    write('');
    for (const line of explainHeader(c, judged, exec)) write(line);
    const [r] = await runSuite({
      suite,
      factories: [judged],
      decisions,
      filter: { areas: [], ids: [c.id] },
      onStep: explainObserver(write),
      listener: { header() {}, result() {}, footer() {} },
      ...(stepTimeoutMs ? { stepTimeoutMs } : {}),
      workerCommand: io.self,
    });
    for (const line of explainOutcome(r!.outcome)) write(line);
    results.push(r!);
  }
  return exitCodeFor(countOutcomes(results));
}
