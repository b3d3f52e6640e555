import { basename, join } from 'node:path';
import { checkName } from '../../core/names.ts';
import { isRunId } from '../../core/run-id.ts';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkDurable } from './check-durable.ts';
import { checkEnvelope } from './check-envelope.ts';
import { checkErrorFiles } from './check-error-files.ts';
import { checkInputs } from './check-inputs.ts';
import { checkLogAgainstReceipts } from './check-log-receipts.ts';
import { checkPublished } from './check-published.ts';
import { checkRunReceipts } from './check-run-receipts.ts';
import { checkVmLog } from './check-vm-log.ts';
import { checkWorkspace } from './check-workspace.ts';
import { listNames } from './list-names.ts';
import { isRefused } from './read-bytes.ts';
import type { LineMarker } from './read-vm-log.ts';

type Sink = RunSink;

/** One run, then each `imports/{handle}--{slug}/` with the same rules (fs "Nested Imports"). */
export function checkCurrentRun(run: string, sink: Sink, isImport: boolean): void {
  const name = basename(run);
  if (!isImport && !isRunId(name))
    sink.add('run.id', `run directory ${JSON.stringify(name)} is not {YYYYMMDD}-{HHMMSS}-{random6}`);
  const log = checkVmLog(run, sink, isImport ? undefined : name);
  const hasReceipts = isKind(join(run, 'receipts'), 'dir');
  const functionOrTest = isKind(join(run, 'bindings'), 'dir') || !!log?.markers.some((m) => m.kind === 'test');
  checkEnvelope(run, sink, functionOrTest);
  const chains = checkRunReceipts(run, sink);
  checkPublished(run, chains, sink);
  checkInputs(run, log, sink);
  if (log && (hasReceipts || !functionOrTest)) checkLogAgainstReceipts(unrefused(run, log.markers, sink), chains, sink);
  checkWorkspace(run, chains, sink);
  if (log) checkErrorFiles(run, log.markers, sink);
  if (!isImport) checkDurable(run, chains, sink);
  for (const imp of importDirs(run)) {
    const rel = `imports/${imp}`;
    const why = isKind(join(run, rel), 'dir') ? importNameProblem(imp) : 'is not a directory';
    if (why) sink.add('import.name', `${rel} ${why}`, { file: rel });
    else checkCurrentRun(join(run, rel), sink.at(rel), true);
  }
}

/** The markers but those of a node whose receipts file was refused (the tree scan reported it; it has no chain). */
function unrefused(run: string, markers: readonly LineMarker[], sink: Sink): LineMarker[] {
  const refused = (node: string) => isRefused(join(run, 'receipts', `${node}.jsonl`), sink.maxFileBytes);
  return markers.filter((m) => !('node' in m) || !refused(m.node));
}

function importDirs(run: string): string[] {
  const dir = join(run, 'imports');
  return isKind(dir, 'dir') ? listNames(dir) : [];
}

/** fs "Nested Imports": `{handle}--{slug}`, split at the first "--" (a handle holds none, decisions names). */
function importNameProblem(entry: string): string | undefined {
  const m = /^(.*?)--(.*)$/.exec(entry);
  if (!m) return 'is not named {handle}--{slug}';
  for (const [kind, value] of [
    ['handle', m[1]],
    ['slug', m[2]],
  ] as const) {
    try {
      checkName(kind, value);
    } catch (err) {
      return `is not {handle}--{slug}: ${(err as Error).message}`;
    }
  }
  return undefined;
}
