import { join } from 'node:path';
import { kindOf } from '../kit/owned-files.ts';
import { checkFacets } from './check-facets.ts';
import type { RunChain } from './check-run-receipts.ts';
import { checkRunInputs } from './check-run-inputs.ts';
import { checkWorkspaceFingerprint } from './check-workspace-fingerprint.ts';
import type { RunSink } from './run-sink.ts';

/**
 * The checks of one current run that reach past its own files' formats (src/verify/current-run/state-rules.ts):
 * the workspace's addresses, where versions live, run-typed inputs' bodies, facets.
 */
export function checkRunState(run: string, chains: Map<string, RunChain>, sink: RunSink): void {
  checkWorkspaceFingerprint(run, chains, sink);
  // fs keeps versions in <openprose-root>/state/ only; the v0 hybrid keeps them per run (decision wm-version-store).
  const kind = kindOf(join(run, 'state'));
  if (kind === 'dir' || kind === 'file')
    sink.add('durable.per-run-store', 'the run holds a state/ of its own: durable state is <openprose-root>/state/', {
      file: 'state',
    });
  checkRunInputs(run, sink);
  checkFacets(run, chains, sink);
}
