import { renamedToCurrent, type Edition } from '../../core/editions.ts';

const V0: Record<string, readonly string[]> = {
  run: ['id', 'program_path', 'program_source', 'status'],
  execution: ['id', 'run_id', 'status', 'metadata'],
  bindings: ['name', 'run_id', 'execution_id', 'kind', 'value', 'attachment_path'],
  agents: ['name', 'run_id', 'scope', 'memory'],
  agent_segments: ['agent_name', 'run_id', 'segment_number', 'prompt', 'summary'],
  imports: ['alias', 'run_id', 'source_url'],
};

/**
 * The columns each edition's postgres.md names that verify needs, per core table (the corrected DDL keeps them:
 * docs/postgres.md). The current edition's are v0's renamed (CURRENT_SQL_RENAMES), plus the world-model tables.
 */
export const PG_CORE_COLUMNS: Record<Edition, Record<string, readonly string[]>> = {
  v0: V0,
  current: {
    ...renamedToCurrent(V0),
    world_model_version: ['version', 'node', 'artifact'],
    world_model_published: ['node', 'version'],
    receipt: ['id', 'node', 'prev', 'status'],
  },
};
