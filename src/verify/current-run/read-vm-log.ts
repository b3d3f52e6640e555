import { isRunId } from '../../core/run-id.ts';
import type { TextLine } from './text-lines.ts';
import { parseMarker, type Marker } from './vm-log-marker.ts';

/** The header of vm.log.md (fs "Format"). */
export interface VmLogHeader {
  runId?: string;
  rootName?: string;
  upstream?: string[];
  root?: string;
}

export type LineMarker = Marker & { line: number };

export interface VmLogProblem {
  rule: 'vmlog.header' | 'vmlog.marker' | 'vmlog.file';
  line: number;
  message: string;
}

export interface VmLog {
  header: VmLogHeader;
  markers: LineMarker[];
  problems: VmLogProblem[];
}

/**
 * Reads vm.log.md's lines into a header and markers. Never throws: an unknown line, a non-UTF-8 line or a missing
 * header line is a problem with its line number, and reading goes on.
 */
export function readVmLog(lines: readonly TextLine[]): VmLog {
  const log: VmLog = { header: {}, markers: [], problems: [] };
  const add = (rule: VmLogProblem['rule'], line: number, message: string) => log.problems.push({ rule, line, message });
  let inHeader = true;
  for (const { n, text } of lines) {
    if (text === undefined) {
      add('vmlog.file', n, `line ${n} is not UTF-8`);
      continue;
    }
    if (n === 1) {
      readHeading(text, log.header, (m) => add('vmlog.header', 1, m));
      continue;
    }
    if (text.trim() === '') continue;
    if (inHeader && readHeaderLine(text, n, log.header, (m) => add('vmlog.header', n, m))) continue;
    inHeader = false;
    const parsed = parseMarker(text);
    if ('marker' in parsed) log.markers.push({ ...parsed.marker, line: n });
    else add('vmlog.marker', n, `line ${n}: ${parsed.problem}`);
  }
  if (lines.length === 0) add('vmlog.header', 1, 'vm.log.md is empty: it starts with "# run:{id} {root-name}"');
  else if (log.header.root === undefined) add('vmlog.header', 1, 'the header has no "root:" line (fs: always present)');
  return log;
}

function readHeading(text: string, header: VmLogHeader, add: (m: string) => void): void {
  const m = /^# run:(\S+) (\S+)$/.exec(text);
  if (!m) return add(`line 1 is ${JSON.stringify(text.slice(0, 80))}, not "# run:{id} {root-name}"`);
  header.runId = m[1];
  header.rootName = m[2];
}

/** True when `text` is a header line (`upstream:` or `root:`), recording it or its problem. */
function readHeaderLine(text: string, n: number, header: VmLogHeader, add: (m: string) => void): boolean {
  const m = /^(upstream|root):(.*)$/.exec(text);
  if (!m) return false;
  const [, key, raw] = m as unknown as [string, 'upstream' | 'root', string];
  if (header[key] !== undefined) add(`line ${n}: a second "${key}:" line`);
  else if (key === 'root') readRoot(raw, n, header, add);
  else if (header.root !== undefined) add(`line ${n}: "upstream:" comes before "root:" (fs "Format")`);
  else readUpstream(raw, n, header, add);
  return true;
}

function readRoot(raw: string, n: number, header: VmLogHeader, add: (m: string) => void): void {
  const value = raw.trim();
  header.root = value;
  // A name or a path, as the invocation named it (decision vm-log-header): only presence and shape are checked.
  if (value === '' || !raw.startsWith(' ')) add(`line ${n}: "root:" needs a space and the invoked contract's path`);
}

function readUpstream(raw: string, n: number, header: VmLogHeader, add: (m: string) => void): void {
  const m = /^ \[(.*)\]$/.exec(raw);
  const ids = m && m[1]!.trim() !== '' ? m[1]!.split(',').map((s) => s.trim()) : [];
  header.upstream = ids;
  if (!m || m[1]!.trim() === '')
    add(`line ${n}: "upstream:" is "[id, …]" with at least one run id (fs: omitted otherwise)`);
  else for (const id of ids) if (!isRunId(id)) add(`line ${n}: upstream ${JSON.stringify(id)} is not a run id`);
}
