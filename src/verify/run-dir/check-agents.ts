import { join } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import { parseSegmentFile } from '../../core/formats/segment-file.ts';
import { checkName } from '../../core/names.ts';
import { parseSegmentFileName } from '../../core/numbering.ts';
import { isKind } from '../kit/is-kind.ts';
import { listDir, readText } from './check-bindings.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { isIsoDateTime } from '../../core/time-format.ts';
import type { RunDirRuleId } from './rules.ts';

type Sink = FindingSink<RunDirRuleId>;
const SECTIONS = ['Current Understanding', 'Decisions Made', 'Open Concerns'];

/**
 * Checks an `agents/` directory of any scope (a run's, `.prose/agents/`, `~/.prose/agents/`): one directory per
 * agent holding memory.md and {name}-NNN.md segments (filesystem.md "Agent Memory Files", session.md 6.3).
 * `rel` is how the directory is named in findings. Returns the agent names found.
 */
export function checkAgentsDir(abs: string, rel: string, sink: Sink, maxFileBytes: number): string[] {
  const names: string[] = [];
  for (const entry of listDir(abs, rel, sink)) {
    const at = `${rel}/${entry}`;
    if (!isKind(join(abs, entry), 'dir')) {
      sink.add('agent.unknown-file', `${at} is a file; ${rel}/ holds one directory per agent`, { file: at });
      continue;
    }
    try {
      checkName('agent', entry);
    } catch (err) {
      sink.add('agent.name', (err as Error).message, { file: at });
      continue;
    }
    names.push(entry);
    checkAgent(join(abs, entry), at, entry, sink, maxFileBytes);
  }
  return names;
}

function checkAgent(abs: string, rel: string, agent: string, sink: Sink, maxFileBytes: number): void {
  const entries = listDir(abs, rel, sink);
  if (entries.includes('memory.md')) checkMemory(join(abs, 'memory.md'), `${rel}/memory.md`, agent, sink, maxFileBytes);
  else sink.add('agent.memory-missing', `agent ${agent} has no memory.md`, { file: `${rel}/` });
  const segments: number[] = [];
  const segmentLike = new RegExp(`^${escapeRe(agent)}-\\d+\\.md$`);
  for (const e of entries) {
    if (e === 'memory.md') continue;
    const n = parseSegmentFileName(agent, e);
    if (n !== undefined) {
      segments.push(n);
      checkSegment(join(abs, e), `${rel}/${e}`, e.slice(agent.length + 1, -3), sink, maxFileBytes);
    } else if (segmentLike.test(e)) {
      sink.add('segment.file-name', `${e} is not zero-padded to 3 digits (or has extra leading zeros past 999)`, {
        file: `${rel}/${e}`,
      });
    } else {
      sink.add('agent.unknown-file', `${e} is neither memory.md nor a segment ${agent}-NNN.md`, {
        file: `${rel}/${e}`,
      });
    }
  }
  segments.sort((a, b) => a - b);
  let expect = 1;
  for (const n of segments) {
    if (n !== expect) {
      sink.add('segment.sequence', `agent ${agent}'s segments jump from ${expect - 1} to ${n}`, { file: `${rel}/` });
      break;
    }
    expect++;
  }
}

function checkMemory(abs: string, rel: string, agent: string, sink: Sink, maxFileBytes: number): void {
  const text = readText(abs, rel, sink, maxFileBytes);
  if (text === undefined) return;
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const first = lines.findIndex((l) => l.trim() !== '');
  if (lines[first] !== `# Agent Memory: ${agent}`) {
    sink.add(
      'agent.memory-heading',
      `memory.md starts with ${JSON.stringify(lines[first] ?? '')}, not "# Agent Memory: ${agent}"`,
      { file: rel, line: first + 1 || 1 },
    );
  }
  for (const s of SECTIONS) {
    if (!lines.includes(`## ${s}`))
      sink.add('agent.memory-sections', `memory.md has no "## ${s}" section`, { file: rel });
  }
}

function checkSegment(abs: string, rel: string, digits: string, sink: Sink, maxFileBytes: number): void {
  const text = readText(abs, rel, sink, maxFileBytes);
  if (text === undefined) return;
  let seg;
  try {
    seg = parseSegmentFile(text.replace(/\r\n/g, '\n'), rel);
  } catch (err) {
    if (!(err instanceof ProseError)) throw err;
    sink.add('segment.format', err.message, { file: rel, line: err.location?.line ?? 1 }, err.hint);
    return;
  }
  const heading = /^# Segment (\d+)/.exec(text)?.[1] ?? '';
  if (heading !== digits)
    sink.add('segment.number-mismatch', `the heading says Segment ${heading} but the file is number ${digits}`, {
      file: rel,
      line: 1,
    });
  if (!isIsoDateTime(seg.timestamp))
    sink.add(
      'segment.timestamp',
      `timestamp ${JSON.stringify(seg.timestamp)} is not an ISO 8601 date-time with a zone`,
      { file: rel, line: 3 },
    );
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
