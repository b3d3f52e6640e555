import { existsSync, readdirSync } from 'node:fs';
import { parseSegmentFileName } from '../core/numbering.ts';
import { sqliteRows, type RunTarget } from './run-target.ts';
import type { SubagentStorageKind } from '../core/backend.ts';
import { agentDir } from '../core/seed-layout.ts';
import { agentDbOf } from './edition-paths.ts';

/** The number the VM hands out for an agent's next segment: one past the newest stored (1 for a new agent). */
export async function nextSegmentNumber(
  storage: SubagentStorageKind,
  t: RunTarget,
  agent: string,
  scope: 'execution' | 'project' | 'user',
): Promise<number> {
  if (storage === 'directory') {
    const dir = agentDir(t, scope, agent);
    const nums = existsSync(dir)
      ? readdirSync(dir)
          .map((f) => parseSegmentFileName(agent, f))
          .filter((n): n is number => n !== undefined)
      : [];
    return Math.max(0, ...nums) + 1;
  }
  if (storage === 'sqlite') {
    const db = agentDbOf(t, scope);
    if (!existsSync(db)) return 1;
    const rows = await sqliteRows(
      db,
      'SELECT IFNULL(MAX(segment_number), 0) + 1 AS n FROM agent_segments WHERE agent_name = ?',
      [agent],
    );
    return Number(rows[0]?.n ?? 1);
  }
  throw new Error('postgres: pass the segment number (--segment N)');
}
