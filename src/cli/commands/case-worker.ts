import { resolveBackends } from '../backend-kinds.ts';
import type { BackendFactory } from '../../core/backend.ts';
import { ProseError, serializeError, toProseError } from '../../core/errors.ts';
import type { CaseJob, CaseReply } from '../../conformance/case-workers.ts';
import { inEdition } from '../../conformance/edition-runs.ts';
import type { Outcome } from '../../conformance/outcome.ts';
import { runCase } from '../../conformance/run-case.ts';
import { EXIT, type Command } from '../io.ts';

/**
 * The child process that runs the test process's in-process cases side by side with it (src/conformance/case-workers.ts):
 * takes one case at a time over its IPC channel, runs it on the backend its string names (each backend opened once
 * and kept) and sends back the outcome. Exits when the channel closes.
 */
export const caseWorkerCommand: Command = {
  help: `Usage: prose-state case-worker

Used by the runner (test --jobs N above 1): started with an IPC channel, it runs the cases it is sent, one at a time,
and replies with each outcome. Exits when the runner closes the channel.`,
  async run(_argv, io) {
    const send = process.send?.bind(process);
    if (!send) throw new ProseError('E_USAGE', 'case-worker is started by test, with an IPC channel');
    const factories = new Map<string, Promise<BackendFactory>>();
    const factoryFor = (spec: string) => {
      let f = factories.get(spec);
      if (!f) {
        f = resolveBackends(spec, { env: io.env, cwd: io.cwd }).then(([x]) => x!);
        factories.set(spec, f);
      }
      return f;
    };
    let chain = Promise.resolve();
    const one = async (job: CaseJob) => {
      let outcome: Outcome;
      try {
        const { n: _n, spec, edition, case: c, ...settings } = job;
        outcome = await runCase(c, { factory: inEdition(await factoryFor(spec), edition), ...settings });
      } catch (err) {
        // runCase never throws; opening the backend may.
        outcome = { status: 'errored', error: serializeError(toProseError(err)) };
      }
      send({ n: job.n, outcome } satisfies CaseReply);
    };
    await new Promise<void>((resolve) => {
      process.on('message', (job: CaseJob) => {
        chain = chain.then(() => one(job));
      });
      process.on('disconnect', () => void chain.then(resolve));
    });
    return EXIT.ok;
  },
};
