/**
 * The seed's recursive scope-resolution query (sqlite.md "Scope Resolution Query"), adapted to our columns:
 * frames are the `frame-enter` rows of openprose.execution, linked by parent_id, and bindings.execution_id holds
 * the per-run frame number (docs/decisions.md `execution-id`). $1 run, $2 execution_id to start from, $3 name.
 *
 * The backend resolves with the engine's scope chain instead (one meaning on both engines), because pg-mem cannot
 * run WITH RECURSIVE; a spec checks this query agrees with it on a real server and reports the case skipped on
 * pg-mem.
 */
export const SCOPE_CHAIN_SQL = `
WITH RECURSIVE scope_chain AS (
  SELECT id, parent_id, execution_id, 0 AS depth FROM openprose.execution
   WHERE run_id = $1 AND event_type = 'frame-enter' AND execution_id = $2
  UNION ALL
  SELECT e.id, e.parent_id, e.execution_id, s.depth + 1 FROM openprose.execution e
    JOIN scope_chain s ON e.id = s.parent_id
)
SELECT b.name, b.kind, b.value, b.execution_id FROM openprose.bindings b
  LEFT JOIN scope_chain s ON b.execution_id = s.execution_id
 WHERE b.run_id = $1 AND b.name = $3
   AND (b.execution_id IN (SELECT execution_id FROM scope_chain) OR b.execution_id IS NULL)
 ORDER BY CASE WHEN b.execution_id IS NULL THEN 1 ELSE 0 END, s.depth ASC
 LIMIT 1`;
