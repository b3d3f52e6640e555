import { join } from 'node:path';
import { isRunId } from '../../core/run-id.ts';
import type { RunSink } from './run-sink.ts';
import { readBytes } from './read-bytes.ts';
import { readVmLog, type VmLog } from './read-vm-log.ts';
import { splitLines } from './text-lines.ts';
import { checkOrder } from './vm-log-order.ts';

type Sink = RunSink;
const FILE = 'vm.log.md';

/**
 * Reads and checks vm.log.md on its own: the header, every marker, their order, completion. `dirName` is the run
 * directory's name when it should be the heading's run id (not for an import). Returns what was read, for the
 * checks against receipts and caller inputs; undefined when there is no file to read.
 */
export function checkVmLog(run: string, sink: Sink, dirName?: string): VmLog | undefined {
  const read = readBytes(join(run, FILE), sink.maxFileBytes);
  if ('refused' in read) return undefined;
  if ('error' in read) {
    sink.add('vmlog.file', `${FILE} ${read.error}`, { file: FILE });
    return undefined;
  }
  const { lines, endsWithNewline } = splitLines(read.bytes);
  if (!endsWithNewline)
    sink.add('vmlog.torn', `line ${lines.length} does not end with a newline`, { file: FILE, line: lines.length });
  const log = readVmLog(lines);
  for (const p of log.problems) sink.add(p.rule, p.message, { file: FILE, line: p.line });
  const id = log.header.runId;
  if (id !== undefined && !isRunId(id))
    sink.add('vmlog.run-id', `the heading's run id ${JSON.stringify(id)} is not {YYYYMMDD}-{HHMMSS}-{random6}`, {
      file: FILE,
      line: 1,
    });
  else if (id !== undefined && dirName !== undefined && id !== dirName)
    sink.add('vmlog.run-id', `the heading names run ${id} but the directory is ${dirName}`, { file: FILE, line: 1 });
  for (const p of checkOrder(log.markers)) sink.add('vmlog.order', p.message, { file: FILE, line: p.line });
  if (lines.length > 0 && !log.markers.some((m) => m.kind === 'end' || m.kind === 'run-error'))
    sink.add('vmlog.incomplete', 'the log has neither ---end nor ---error: the run is incomplete', {
      file: FILE,
      line: lines.length,
    });
  return log;
}
