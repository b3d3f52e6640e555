import type { Edition } from '../../core/editions.ts';

/**
 * The columns each edition's postgres.md names that verify needs, per core table (the corrected DDL keeps them:
 * docs/postgres.md). The renamed ones tell the editions apart: run.program_path / root_path, bindings.kind / binding,
 * imports.source_url / source_ref.
 */
export const PG_CORE_COLUMNS: Record<Edition, Record<string, readonly string[]>> = {
  v0: {
    run: ['id', 'program_path', 'program_source', 'status'],
    execution: ['id', 'run_id', 'status', 'metadata'],
    bindings: ['name', 'run_id', 'execution_id', 'kind', 'value', 'attachment_path'],
    agents: ['name', 'run_id', 'scope', 'memory'],
    agent_segments: ['agent_name', 'run_id', 'segment_number', 'prompt', 'summary'],
    imports: ['alias', 'run_id', 'source_url'],
  },
  current: {
    run: ['id', 'root_path', 'root_source', 'status'],
    execution: ['id', 'run_id', 'status', 'metadata'],
    bindings: ['name', 'run_id', 'execution_id', 'binding', 'value', 'attachment_path'],
    agents: ['name', 'run_id', 'scope', 'memory'],
    agent_segments: ['agent_name', 'run_id', 'segment_number', 'prompt', 'summary'],
    imports: ['alias', 'run_id', 'source_ref'],
    world_model_version: ['version', 'node', 'artifact'],
    world_model_published: ['node', 'version'],
    receipt: ['id', 'node', 'prev', 'status'],
  },
};
