import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseSegmentFileName } from '../core/numbering.ts';
import { ISO_TIMESTAMP } from '../core/time-format.ts';
import type { Finding } from '../verify/finding.ts';
import { checkMemoryText } from './check-memory-text.ts';
import { checkSegmentFile, checkSummary } from './check-segment-text.ts';
import { isInside, type RunTarget } from './run-target.ts';
import { checkSegmentNumbers } from './segment-numbers.ts';
import { finding } from './session-rules.ts';

/**
 * What a persistent agent stored once its memory location checked out: the memory (a file or a row) in the 6.3
 * structure, and its segments (files or rows) well formed and numbered one past the previous one.
 */

export function checkMemoryRow(rows: Record<string, unknown>[], agent: string, table: string, out: Finding[]): void {
  const memory = rows[0]?.memory;
  if (memory == null)
    out.push(
      finding(
        'memory.missing',
        `no memory for agent ${agent}`,
        { table, row: `name='${agent}'` },
        'run the memory statement you were given',
      ),
    );
  else out.push(...checkMemoryText(String(memory), { where: { table, row: `name='${agent}'` }, agent }));
}

export function checkSegmentFiles(
  dir: string,
  agent: string,
  named: number,
  t: RunTarget,
  where: { file: string; line: number },
  expected: number | undefined,
): Finding[] {
  const out: Finding[] = [];
  const numbers: number[] = [];
  for (const f of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const m = new RegExp(`^${agent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)\\.md$`).exec(f);
    if (!m) continue;
    const n = parseSegmentFileName(agent, f);
    const shown = show(t, join(dir, f));
    if (n === undefined) {
      out.push(
        finding(
          numbers.includes(Number(m[1])) ? 'segment.number-repeat' : 'segment.format',
          `${f} is not a segment file name (${agent}-NNN.md, 3 digits, growing past 999)`,
          { file: shown },
        ),
      );
      continue;
    }
    numbers.push(n);
    if (n === named) out.push(...checkSegmentFile(readFileSync(join(dir, f), 'utf8'), shown, n));
  }
  out.push(...checkSegmentNumbers(numbers, named, where, expected));
  return out;
}

export function checkSegmentRows(
  rows: Record<string, unknown>[],
  agent: string,
  named: number,
  table: string,
  where: { file: string; line: number },
  expected: number | undefined,
  out: Finding[],
): void {
  for (const r of rows) {
    if (Number(r.segment_number) !== named) continue;
    const row = `agent_name='${agent}', segment_number=${named}`;
    const ts = String(r.timestamp ?? '');
    // sqlite.md's default is datetime('now'), "YYYY-MM-DD HH:MM:SS" in UTC: accepted in a row, ISO 8601 preferred.
    if (!ISO_TIMESTAMP.test(ts) && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(ts))
      out.push(finding('segment.timestamp', `timestamp ${JSON.stringify(ts)} is not ISO 8601`, { table, row }));
    if (r.prompt == null || r.prompt === '')
      out.push(finding('segment.prompt', 'the segment row has no prompt', { table, row }));
    out.push(...checkSummary(String(r.summary ?? ''), { table, row }));
  }
  checkSegmentNumbers(
    rows.map((r) => Number(r.segment_number)),
    named,
    where,
    expected,
  ).forEach((f) => out.push(f));
}

export function show(t: RunTarget, abs: string): string {
  if (isInside(t.homeDir, abs) && !isInside(t.projectDir, abs))
    return `~/${relative(t.homeDir, abs).split(sep).join('/')}`;
  const r = relative(t.projectDir, abs);
  return r.startsWith('..') ? abs : r.split(sep).join('/');
}
