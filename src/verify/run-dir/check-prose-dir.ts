import { join } from 'node:path';
import { checkStateDb } from '../state-db/check-state-db.ts';
import { STATE_DB_RULES } from '../state-db/rules.ts';
import { checkAgentsDir } from './check-agents.ts';
import { listDir } from './check-bindings.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkRunDir } from './check-run-dir.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import type { RunDirRuleId } from './rules.ts';

type Sink = FindingSink<RunDirRuleId>;

/**
 * A `.prose/` directory (filesystem.md "Directory Structure"): every run under runs/, project agents under agents/,
 * and agents.db (sqlite.md project scope). With a home directory, `~/.prose/agents/` and `~/.prose/agents.db` too,
 * reported as `~/.prose/...`.
 */
export async function checkProseDir(
  abs: string,
  sink: Sink,
  opts: { thresholdBytes: number; maxFileBytes: number; homeDir?: string },
): Promise<void> {
  for (const entry of listDir(join(abs, 'runs'), 'runs', sink)) {
    const rel = `runs/${entry}`;
    if (!isKind(join(abs, 'runs', entry), 'dir')) {
      sink.add('run.stray-entry', `${rel} is not a run directory`, { file: rel });
      continue;
    }
    await checkRunDir(join(abs, 'runs', entry), sink.at(rel), {
      thresholdBytes: opts.thresholdBytes,
      maxFileBytes: opts.maxFileBytes,
      homeDir: opts.homeDir,
    });
  }
  await checkScopeDir(abs, sink, opts);
  if (opts.homeDir !== undefined) await checkScopeDir(join(opts.homeDir, '.prose'), sink.at('~/.prose'), opts);
}

/** The agents of one persistent scope: agents/ (filesystem layout) and agents.db (sqlite layout). */
async function checkScopeDir(
  proseDir: string,
  sink: Sink,
  { thresholdBytes, maxFileBytes }: { thresholdBytes: number; maxFileBytes: number },
): Promise<void> {
  checkAgentsDir(join(proseDir, 'agents'), 'agents', sink, maxFileBytes);
  if (isKind(join(proseDir, 'agents.db'), 'file')) {
    await checkStateDb(join(proseDir, 'agents.db'), sink.withRules(STATE_DB_RULES), {
      file: 'agents.db',
      thresholdBytes,
      dbKind: 'agents',
    });
  }
}
