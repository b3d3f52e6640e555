import { basename, dirname, join } from 'node:path';
import { checkName } from '../../core/names.ts';
import { isRunId } from '../../core/run-id.ts';
import { checkStateDb } from '../state-db/check-state-db.ts';
import { STATE_DB_RULES } from '../state-db/rules.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkAgentsDir } from './check-agents.ts';
import { checkBindings, listDir, readText } from './check-bindings.ts';
import { checkIndex } from './check-index.ts';
import { checkStateMd } from './check-state-md.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import type { RunDirRuleId } from './rules.ts';

type Sink = FindingSink<RunDirRuleId>;

export interface RunDirOptions {
  thresholdBytes: number;
  maxFileBytes: number;
  homeDir?: string;
  /** True for an `imports/{handle}--{slug}/` directory: its name is not a run id. */
  isImport?: boolean;
}

/**
 * One run directory (filesystem.md "Directory Structure"), then its imports recursively with the same rules
 * ("Imports Recursive Structure"). A run holding state.db and no state.md is a sqlite.md run: its database is
 * checked instead of state.md, bindings/ and the Index (decisions verify-run-layout).
 */
export async function checkRunDir(abs: string, sink: Sink, opts: RunDirOptions): Promise<void> {
  const name = basename(abs);
  if (!opts.isImport && !isRunId(name))
    sink.add('run.id', `run directory ${JSON.stringify(name)} is not {YYYYMMDD}-{HHMMSS}-{random6}`);
  if (!isKind(join(abs, 'program.prose'), 'file'))
    sink.add('run.program', 'the run has no program.prose', { file: 'program.prose' });
  const hasMd = isKind(join(abs, 'state.md'), 'file');
  const hasDb = isKind(join(abs, 'state.db'), 'file');
  if (hasMd) {
    const text = readText(join(abs, 'state.md'), 'state.md', sink, opts.maxFileBytes);
    const facts =
      text === undefined ? undefined : checkStateMd(text, sink, !opts.isImport && isRunId(name) ? name : undefined);
    const bindings = checkBindings(abs, sink, opts.thresholdBytes, opts.maxFileBytes);
    const agents = checkAgentsDir(join(abs, 'agents'), 'agents', sink, opts.maxFileBytes);
    if (facts)
      checkIndex(
        facts,
        { runDir: abs, bindings, agents, projectDir: projectOf(abs, opts), homeDir: opts.homeDir },
        sink,
      );
  } else if (hasDb) {
    await checkStateDb(join(abs, 'state.db'), sink.withRules(STATE_DB_RULES), {
      file: 'state.db',
      runDir: abs,
      expectRunId: !opts.isImport && isRunId(name) ? name : undefined,
      thresholdBytes: opts.thresholdBytes,
      dbKind: 'run',
    });
  } else {
    sink.add('run.state', 'the run has neither state.md nor state.db', { file: 'state.md' });
  }
  for (const entry of listDir(join(abs, 'imports'), 'imports', sink)) {
    const rel = `imports/${entry}`;
    if (!isKind(join(abs, 'imports', entry), 'dir')) {
      sink.add('import.name', `${rel} is not a directory`, { file: rel });
      continue;
    }
    const why = importNameProblem(entry);
    if (why) {
      sink.add('import.name', `${rel}: ${why}`, { file: rel });
      continue;
    }
    await checkRunDir(join(abs, 'imports', entry), sink.at(rel), { ...opts, isImport: true });
  }
}

function importNameProblem(entry: string): string | undefined {
  // A handle never holds "--" (decisions names), so the first "--" splits; a slug may hold more.
  const at = entry.indexOf('--');
  if (at === -1) return 'an import directory is named {handle}--{slug}';
  try {
    checkName('handle', entry.slice(0, at));
    checkName('slug', entry.slice(at + 2));
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** The project directory when the run sits at {project}/.prose/runs/{id}; imports sit deeper. */
function projectOf(abs: string, opts: RunDirOptions): string | undefined {
  if (opts.isImport) return undefined;
  const runs = dirname(abs);
  const prose = dirname(runs);
  return basename(runs) === 'runs' && basename(prose) === '.prose' ? dirname(prose) : undefined;
}
