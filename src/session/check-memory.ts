import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { parseSegmentFileName } from '../core/numbering.ts';
import { agentDir, type FixedAgentScope } from '../core/seed-layout.ts';
import { otherEditionPath } from './edition-findings.ts';
import { agentDbOf, runsDirOf } from './edition-paths.ts';
import type { Finding } from '../verify/finding.ts';
import { checkMemoryText } from './check-memory-text.ts';
import { checkMemoryRow, checkSegmentFiles, checkSegmentRows, show } from './check-stored-memory.ts';
import type { MemoryBlock } from './parse-confirmation.ts';
import { parseLocation, parseSegmentRef, type Location } from './parse-location.ts';
import { isInside, resolveMessagePath, sqliteRows, type PgQuery, type RunTarget } from './run-target.ts';
import { finding } from './session-rules.ts';

const SCOPES: readonly FixedAgentScope[] = ['execution', 'project', 'user'];

/** One memory block whose location parsed: what each form's check needs. */
interface LocatedMemory {
  agent: string;
  /** The segment the message names, when it names one well. */
  seg: { number: number } | undefined;
  t: RunTarget;
  query: PgQuery | undefined;
  /** The location line, and the line segment findings point at (the Segment line, else the location). */
  at: { file: string; line: number };
  segWhere: { file: string; line: number };
  expectSegment: number | undefined;
  location: string;
  out: Finding[];
}

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
  const seg = namedSegment(m, agent, at, out);
  if (!m.location) return out;
  const loc = parseLocation(m.location.value);
  if ('error' in loc) return [...out, finding('message.location-form', loc.error, at(m.location.line))];
  const c: LocatedMemory = {
    agent,
    seg,
    t,
    query,
    at: at(m.location.line),
    segWhere: at(m.segment?.line ?? m.location.line),
    expectSegment,
    location: m.location.value,
    out,
  };
  if (loc.form === 'directory') checkFileMemory(loc, c);
  else if (loc.form === 'sqlite') await checkSqliteMemory(loc, c);
  else await checkPostgresMemory(loc, c);
  return out;
}

/** The "Segment:" line: present, and a segment file name of this agent. */
function namedSegment(
  m: MemoryBlock,
  agent: string,
  at: (line: number) => { file: string; line: number },
  out: Finding[],
): { number: number } | undefined {
  if (!m.segment) {
    const hint = 'name the segment file you wrote';
    out.push(finding('message.segment-missing', `no "Segment: ${agent}-NNN.md" line`, at(m.agent.line), hint));
    return undefined;
  }
  const ref = parseSegmentRef(m.segment.value);
  if (ref && ref.agent === agent && parseSegmentFileName(agent, m.segment.value) !== undefined) return ref;
  out.push(
    finding(
      'message.location-mismatch',
      `"Segment: ${m.segment.value}" is not a segment of ${agent} ({agent}-NNN.md, 3 digits, 4+ past 999)`,
      at(m.segment.line),
    ),
  );
  return undefined;
}

/** Filesystem: {scope root}/{agent}/memory.md in one of the three scopes, and the segment files beside it. */
function checkFileMemory(loc: Extract<Location, { form: 'directory' }>, c: LocatedMemory): void {
  const { t, agent, out } = c;
  const abs = resolveMessagePath(t, loc.path);
  const roots = SCOPES.map((s) => dirname(agentDir(t, s, agent)));
  if (basename(abs) !== 'memory.md' || basename(dirname(abs)) !== agent || !roots.includes(dirname(dirname(abs)))) {
    const rule =
      isInside(runsDirOf(t), abs) && !isInside(t.runDir, abs)
        ? 'message.location-outside-run'
        : 'message.location-mismatch';
    const want = `{run}/agents/${agent}/memory.md, .prose/agents/${agent}/memory.md or ~/.prose/agents/${agent}/memory.md`;
    out.push(finding(rule, `the memory of ${agent} is ${want}, not ${loc.path}`, c.at));
    return;
  }
  const shown = show(t, abs);
  if (!existsSync(abs))
    out.push(
      finding('memory.missing', `${shown} does not exist`, { file: shown }, 'update your memory file before returning'),
    );
  else out.push(...checkMemoryText(readFileSync(abs, 'utf8'), { where: { file: shown }, agent }));
  if (c.seg) out.push(...checkSegmentFiles(dirname(abs), agent, c.seg.number, t, c.segWhere, c.expectSegment));
}

/** Sqlite: the agents table of the run's state.db or a scope's agents.db, and its agent_segments rows. */
async function checkSqliteMemory(loc: Extract<Location, { form: 'sqlite' }>, c: LocatedMemory): Promise<void> {
  const { t, agent, out } = c;
  const abs = resolveMessagePath(t, loc.db);
  const dbs = SCOPES.map((s) => agentDbOf(t, s));
  const v0 = otherEditionPath(t, abs, dbs.map((d) => show(t, d)).join(', or '), c.at);
  if (v0) {
    out.push(v0);
    return;
  }
  if (!dbs.includes(abs) || loc.table !== 'agents' || loc.name !== agent) {
    const want = `"{state.db or agents.db} (agents table, name='${agent}')"`;
    out.push(finding('message.location-mismatch', `the memory of ${agent} is ${want}, not ${c.location}`, c.at));
    return;
  }
  const table = `${show(t, abs)} agents`;
  const rows = existsSync(abs) ? await sqliteRows(abs, 'SELECT memory FROM agents WHERE name = ?', [agent]) : [];
  checkMemoryRow(rows, agent, table, out);
  if (!c.seg) return;
  const segs = existsSync(abs)
    ? await sqliteRows(
        abs,
        'SELECT segment_number, timestamp, prompt, summary FROM agent_segments ' +
          'WHERE agent_name = ? ORDER BY segment_number',
        [agent],
      )
    : [];
  checkSegmentRows(segs, agent, c.seg.number, `${show(t, abs)} agent_segments`, c.segWhere, c.expectSegment, out);
}

/** Postgres: openprose.agents for this agent and scope (and run, at execution scope), and its segment rows. */
async function checkPostgresMemory(loc: Extract<Location, { form: 'postgres' }>, c: LocatedMemory): Promise<void> {
  const { t, agent, out } = c;
  const w = loc.where;
  if (loc.table !== 'agents' || w.name !== agent || (w.scope === 'execution' && w.run_id !== t.runId)) {
    const want = `openprose.agents WHERE name='${agent}' AND scope='...' [AND run_id='${t.runId}']`;
    out.push(finding('message.location-mismatch', `the memory of ${agent} is ${want}`, c.at));
    return;
  }
  if (!c.query) {
    out.push(finding('message.unchecked', 'no PostgreSQL connection was given, so the rows were not read', c.at));
    return;
  }
  const scope = typeof w.scope === 'string' ? w.scope : 'execution';
  const runId = scope === 'execution' ? t.runId : null;
  const key = `agent_name = $1 AND scope = $2 AND COALESCE(run_id, '') = COALESCE($3::text, '')`;
  const memorySql = `SELECT memory FROM openprose.agents WHERE ${key.replace('agent_name', 'name')}`;
  checkMemoryRow(await c.query(memorySql, [agent, scope, runId]), agent, 'openprose.agents', out);
  if (!c.seg) return;
  const segs = await c.query(
    'SELECT segment_number, "timestamp", prompt, summary FROM openprose.agent_segments ' +
      `WHERE ${key} ORDER BY segment_number`,
    [agent, scope, runId],
  );
  checkSegmentRows(segs, agent, c.seg.number, 'openprose.agent_segments', c.segWhere, c.expectSegment, out);
}
