import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { parseSegmentFileName } from '../core/numbering.ts';
import { agentDbFile, agentDir, runsDir, type FixedAgentScope } from '../core/seed-layout.ts';
import { ISO_TIMESTAMP } from '../core/time-format.ts';
import type { Finding } from '../verify/finding.ts';
import { checkMemoryText } from './check-memory-text.ts';
import { checkSegmentFile, checkSummary } from './check-segment-text.ts';
import type { MemoryBlock } from './parse-confirmation.ts';
import { parseLocation, parseSegmentRef } from './parse-location.ts';
import { isInside, resolveMessagePath, sqliteRows, type PgQuery, type RunTarget } from './run-target.ts';
import { checkSegmentNumbers } from './segment-numbers.ts';
import { finding } from './session-rules.ts';

const SCOPES: readonly FixedAgentScope[] = ['execution', 'project', 'user'];

/**
 * Checks the memory block of a persistent agent (session.md 7.4): memory written where the Location says, in the
 * 6.3 structure; the named segment written, well formed, and numbered one past the previous one.
 */
export async function checkMemory(
  m: MemoryBlock,
  t: RunTarget,
  msgFile: string,
  query: PgQuery | undefined,
  expectSegment?: number,
): Promise<Finding[]> {
  const out: Finding[] = [];
  const agent = m.agent.value;
  const at = (line: number) => ({ file: msgFile, line });
  if (!m.location)
    out.push(finding('message.location-missing', `no "Location:" for the memory of ${agent}`, at(m.agent.line)));
  let seg: { number: number } | undefined;
  if (!m.segment)
    out.push(
      finding(
        'message.segment-missing',
        `no "Segment: ${agent}-NNN.md" line`,
        at(m.agent.line),
        'name the segment file you wrote',
      ),
    );
  else {
    const ref = parseSegmentRef(m.segment.value);
    if (!ref || ref.agent !== agent || parseSegmentFileName(agent, m.segment.value) === undefined) {
      out.push(
        finding(
          'message.location-mismatch',
          `"Segment: ${m.segment.value}" is not a segment of ${agent} ({agent}-NNN.md, 3 digits, 4+ past 999)`,
          at(m.segment.line),
        ),
      );
    } else seg = ref;
  }
  if (!m.location) return out;
  const loc = parseLocation(m.location.value);
  if ('error' in loc) return [...out, finding('message.location-form', loc.error, at(m.location.line))];
  const segWhere = at(m.segment?.line ?? m.location.line);

  if (loc.form === 'directory') {
    const abs = resolveMessagePath(t, loc.path);
    const roots = SCOPES.map((s) => dirname(agentDir(t, s, agent)));
    if (basename(abs) !== 'memory.md' || basename(dirname(abs)) !== agent || !roots.includes(dirname(dirname(abs)))) {
      const rule =
        isInside(runsDir(t.projectDir), abs) && !isInside(t.runDir, abs)
          ? 'message.location-outside-run'
          : 'message.location-mismatch';
      return [
        ...out,
        finding(
          rule,
          `the memory of ${agent} is {run}/agents/${agent}/memory.md, .prose/agents/${agent}/memory.md or ~/.prose/agents/${agent}/memory.md, not ${loc.path}`,
          at(m.location.line),
        ),
      ];
    }
    const shown = show(t, abs);
    if (!existsSync(abs))
      out.push(
        finding(
          'memory.missing',
          `${shown} does not exist`,
          { file: shown },
          'update your memory file before returning',
        ),
      );
    else out.push(...checkMemoryText(readFileSync(abs, 'utf8'), { where: { file: shown }, agent }));
    if (seg) out.push(...checkSegmentFiles(dirname(abs), agent, seg.number, t, segWhere, expectSegment));
    return out;
  }
  if (loc.form === 'sqlite') {
    const abs = resolveMessagePath(t, loc.db);
    const dbs = SCOPES.map((s) => agentDbFile(t, s));
    if (!dbs.includes(abs) || loc.table !== 'agents' || loc.name !== agent) {
      return [
        ...out,
        finding(
          'message.location-mismatch',
          `the memory of ${agent} is "{state.db or agents.db} (agents table, name='${agent}')", not ${m.location.value}`,
          at(m.location.line),
        ),
      ];
    }
    const table = `${show(t, abs)} agents`;
    const rows = existsSync(abs) ? await sqliteRows(abs, 'SELECT memory FROM agents WHERE name = ?', [agent]) : [];
    checkMemoryRow(rows, agent, table, out);
    if (seg) {
      const segs = existsSync(abs)
        ? await sqliteRows(
            abs,
            'SELECT segment_number, timestamp, prompt, summary FROM agent_segments WHERE agent_name = ? ORDER BY segment_number',
            [agent],
          )
        : [];
      checkSegmentRows(segs, agent, seg.number, `${show(t, abs)} agent_segments`, segWhere, expectSegment, out);
    }
    return out;
  }
  const w = loc.where;
  if (loc.table !== 'agents' || w.name !== agent || (w.scope === 'execution' && w.run_id !== t.runId)) {
    return [
      ...out,
      finding(
        'message.location-mismatch',
        `the memory of ${agent} is openprose.agents WHERE name='${agent}' AND scope='...' [AND run_id='${t.runId}']`,
        at(m.location.line),
      ),
    ];
  }
  if (!query)
    return [
      ...out,
      finding(
        'message.unchecked',
        'no PostgreSQL connection was given, so the rows were not read',
        at(m.location.line),
      ),
    ];
  const scope = typeof w.scope === 'string' ? w.scope : 'execution';
  const runId = scope === 'execution' ? t.runId : null;
  const key = `agent_name = $1 AND scope = $2 AND COALESCE(run_id, '') = COALESCE($3::text, '')`;
  checkMemoryRow(
    await query(`SELECT memory FROM openprose.agents WHERE ${key.replace('agent_name', 'name')}`, [
      agent,
      scope,
      runId,
    ]),
    agent,
    'openprose.agents',
    out,
  );
  if (seg) {
    const segs = await query(
      `SELECT segment_number, "timestamp", prompt, summary FROM openprose.agent_segments WHERE ${key} ORDER BY segment_number`,
      [agent, scope, runId],
    );
    checkSegmentRows(segs, agent, seg.number, 'openprose.agent_segments', segWhere, expectSegment, out);
  }
  return out;
}

function checkMemoryRow(rows: Record<string, unknown>[], agent: string, table: string, out: Finding[]): void {
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

function checkSegmentFiles(
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

function checkSegmentRows(
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

function show(t: RunTarget, abs: string): string {
  if (isInside(t.homeDir, abs) && !isInside(t.projectDir, abs))
    return `~/${relative(t.homeDir, abs).split(sep).join('/')}`;
  const r = relative(t.projectDir, abs);
  return r.startsWith('..') ? abs : r.split(sep).join('/');
}
