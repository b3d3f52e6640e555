import { join } from 'node:path';
import { isKind } from '../kit/is-kind.ts';
import type { RunSink } from './run-sink.ts';
import { readBytes } from './read-bytes.ts';

type Sink = RunSink;
const INTENT = 'compiled-intent.json';
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The durable run envelope (state/README.md): root.prose.md, sources/ and the compiled intent. A function or test
 * run may leave the intent out (decision compiled-intent-required); present, it must be a JSON object.
 */
export function checkEnvelope(run: string, sink: Sink, functionOrTest: boolean): void {
  if (!isKind(join(run, 'root.prose.md'), 'file'))
    sink.add('run.envelope', 'the run has no root.prose.md (the snapshot of the invoked source)', {
      file: 'root.prose.md',
    });
  if (!isKind(join(run, 'sources'), 'dir'))
    sink.add('run.envelope', 'the run has no sources/ directory (snapshots of the referenced sources)', {
      file: 'sources',
    });
  const read = readBytes(join(run, INTENT), sink.maxFileBytes);
  if ('refused' in read) return;
  if ('error' in read) {
    const rule = functionOrTest && read.error === 'is missing' ? 'run.envelope-optional' : 'run.envelope';
    sink.add(rule, `${INTENT} ${read.error}`, { file: INTENT });
    return;
  }
  const problem = jsonObjectProblem(read.bytes);
  if (problem) sink.add('run.envelope', `${INTENT} ${problem}`, { file: INTENT });
}

function jsonObjectProblem(bytes: Uint8Array): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(bytes));
  } catch (err) {
    return err instanceof SyntaxError ? `is not JSON: ${err.message}` : 'is not UTF-8';
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'is not a JSON object';
}
