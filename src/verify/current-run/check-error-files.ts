import { join } from 'node:path';
import { isKind } from '../kit/is-kind.ts';
import { listNames } from './list-names.ts';
import { readBytes } from './read-bytes.ts';
import type { LineMarker } from './read-vm-log.ts';
import type { RunSink } from './run-sink.ts';
import { splitLines } from './text-lines.ts';

/** fs "Error Files" and prose.md write `# Error: name`; session.md "3.2 How to Signal Failure" `# Render failed: name`. */
const HEADING = /^# (?:Error|Render failed): (\S+)$/;

/**
 * Each workspace/{node}/__error.md against vm.log.md's ✗ markers (decision error-file-heading): its first line is
 * either heading, and the name it gives is one a `N→ node ✗ name` (or branch) marker of that node carries. A node
 * the log never marks ✗ is named only once the log is complete: a render writes the file before the VM logs it.
 */
export function checkErrorFiles(run: string, markers: readonly LineMarker[], sink: RunSink): void {
  const logged = new Map<string, string[]>();
  for (const m of markers)
    if ((m.kind === 'outcome' || m.kind === 'branch') && m.outcome === 'error')
      logged.set(m.node, [...(logged.get(m.node) ?? []), m.detail!]);
  const complete = markers.some((m) => m.kind === 'end' || m.kind === 'run-error');
  for (const node of listNames(join(run, 'workspace'))) {
    const rel = `workspace/${node}/__error.md`;
    if (!isKind(join(run, rel), 'file')) continue;
    const read = readBytes(join(run, rel), sink.maxFileBytes);
    if (!('bytes' in read)) continue; // refused: the tree scan names it
    const first = splitLines(read.bytes).lines[0]?.text ?? '';
    const name = HEADING.exec(first)?.[1];
    const names = logged.get(node);
    const where = { file: rel, line: 1 };
    if (name === undefined)
      sink.add(
        'vmlog.error-file',
        `line 1 is ${JSON.stringify(first.slice(0, 80))}, not "# Error: {error-name}" (fs) or "# Render failed: {error-name}" (session.md)`,
        where,
      );
    else if (names === undefined) {
      if (complete)
        sink.add('vmlog.error-file', `${rel} names error ${name}, but vm.log.md never logs ${node} ✗`, where);
    } else if (!names.includes(name))
      sink.add(
        'vmlog.error-file',
        `${rel} names error ${name}, but vm.log.md logs ${node} ✗ ${names.join(', ')}`,
        where,
      );
  }
}
