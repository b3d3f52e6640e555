/**
 * sqlite.md statements that do not work as written, with the statement this backend's layout needs instead.
 * docs/sqlite.md shows the same pairs; spec/backends/sqlite/seed-queries-broken.spec.ts runs both through the
 * real sqlite3 CLI.
 */
export interface SeedCorrection {
  where: string;
  problem: string;
  seed: string;
  corrected: string;
}

const lastBranchRow = `id = (SELECT MAX(l.id) FROM execution l
    WHERE json_extract(l.metadata, '$.parallel_id') = json_extract(e.metadata, '$.parallel_id')
      AND json_extract(l.metadata, '$.branch') = json_extract(e.metadata, '$.branch'))`;

export const SEED_CORRECTIONS = {
  bindingsDdl: {
    where: 'Core Schema, bindings',
    problem:
      'SQLite refuses expressions in a PRIMARY KEY ("expressions prohibited in PRIMARY KEY and UNIQUE constraints"), so the table is never created.',
    seed: `CREATE TABLE IF NOT EXISTS bindings (
    name TEXT,
    execution_id INTEGER,  -- NULL for root scope, non-null for block invocations
    kind TEXT,  -- input, output, let, const
    value TEXT,
    source_statement TEXT,
    created_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now')),
    attachment_path TEXT,  -- if value is too large, store path to file
    PRIMARY KEY (name, IFNULL(execution_id, -1))  -- IFNULL handles NULL for root scope
);`,
    corrected: `CREATE TABLE IF NOT EXISTS bindings (
    name TEXT, execution_id INTEGER, kind TEXT, value TEXT, source_statement TEXT,
    created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')), attachment_path TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS bindings_name_scope ON bindings(name, IFNULL(execution_id, -1));`,
  },
  scopeCte: {
    where: 'Scope Resolution Query',
    problem:
      'It joins bindings.execution_id to execution.id, a row id of every logged event; ' +
      'execution_id is the per-run frame counter (decision execution-id). ' +
      "Our frames are the rows with metadata.event = 'frame-enter'; RESOLVE_SQL (binding-rows.ts) walks those.",
    seed: `WITH RECURSIVE scope_chain AS (
  SELECT id, parent_id FROM execution WHERE id = 43
  UNION ALL
  SELECT e.id, e.parent_id
  FROM execution e
  JOIN scope_chain s ON e.id = s.parent_id
)
SELECT b.* FROM bindings b
LEFT JOIN scope_chain s ON b.execution_id = s.id
WHERE b.name = 'result'
  AND (b.execution_id IN (SELECT id FROM scope_chain) OR b.execution_id IS NULL)
ORDER BY
  CASE WHEN b.execution_id IS NULL THEN 1 ELSE 0 END,
  s.id DESC NULLS LAST
LIMIT 1;`,
    corrected: '(RESOLVE_SQL in src/backends/sqlite/binding-rows.ts)',
  },
  loopUpdate: {
    where: 'Loop Tracking, "Update iteration"',
    problem:
      'execution has no updated_at column ("no such column: updated_at"); and an UPDATE rewrites the append-only log.',
    seed: `UPDATE execution
SET metadata = json_set(metadata, '$.current_iteration', 2),
    updated_at = datetime('now')
WHERE json_extract(metadata, '$.loop_id') = 'l1';`,
    corrected: `INSERT INTO execution (statement_text, status, started_at, metadata)
VALUES ('loop:', 'iteration', datetime('now'), json_object('event', 'loop-iteration', 'loop_id', 'l1', 'current_iteration', 2));`,
  },
  pendingBranches: {
    where: 'Parallel Execution, "VM checks if all branches complete"',
    problem:
      "On an append-only log it counts every history row that is not 'completed' (the start row, each 'executing' row), so it never reaches 0.",
    seed: `SELECT COUNT(*) as pending FROM execution
WHERE json_extract(metadata, '$.parallel_id') = 'p1' AND status != 'completed';`,
    corrected: `SELECT COUNT(*) AS pending
FROM json_each((SELECT metadata FROM execution WHERE json_extract(metadata, '$.event') = 'parallel-start'
                AND json_extract(metadata, '$.parallel_id') = 'p1' ORDER BY id DESC LIMIT 1), '$.branches') AS b
WHERE IFNULL((SELECT status FROM execution WHERE json_extract(metadata, '$.parallel_id') = 'p1'
              AND json_extract(metadata, '$.branch') = b.value ORDER BY id DESC LIMIT 1), 'pending') != 'completed';`,
  },
  currentPosition: {
    where: 'Resuming Execution, "Find current position"',
    problem:
      "An 'executing' row stays in the log after its statement completes, so it can answer a finished statement.",
    seed: `SELECT statement_index, statement_text, status
FROM execution
WHERE status = 'executing'
ORDER BY id DESC LIMIT 1;`,
    corrected: `SELECT statement_index, statement_text, status FROM execution
WHERE json_extract(metadata, '$.event') = 'statement' OR (metadata IS NULL AND statement_index IS NOT NULL)
ORDER BY id DESC LIMIT 1;`,
  },
  parallelStatus: {
    where: 'Resuming Execution, "Check parallel block status"',
    problem:
      "It looks for a parallel row whose status is still 'executing'; the log writes 'started' and never updates it, so it answers nothing.",
    seed: `SELECT json_extract(metadata, '$.branch') as branch, status
FROM execution
WHERE json_extract(metadata, '$.parallel_id') IS NOT NULL
  AND parent_id = (SELECT id FROM execution WHERE status = 'executing' AND statement_text LIKE 'parallel:%');`,
    corrected: `SELECT json_extract(metadata, '$.branch') AS branch, status FROM execution e
WHERE json_extract(metadata, '$.event') = 'branch'
  AND json_extract(metadata, '$.parallel_id') NOT IN
      (SELECT json_extract(metadata, '$.parallel_id') FROM execution WHERE json_extract(metadata, '$.event') = 'parallel-join')
  AND ${lastBranchRow}
ORDER BY branch;`,
  },
  errorUpdate: {
    where: 'Error Handling, "Record failure" and "Track retry attempts"',
    problem:
      'Both statements run, but UPDATE the row in place: the append-only log loses what the row recorded before.',
    seed: `UPDATE execution
SET status = 'failed',
    error_message = 'Connection timeout after 30s',
    completed_at = datetime('now')
WHERE id = 15;
UPDATE execution
SET metadata = json_set(metadata, '$.retry_attempt', 2, '$.max_retries', 3)
WHERE id = 15;`,
    corrected: `INSERT INTO execution (statement_index, status, started_at, error_message, metadata)
VALUES (15, 'retry', datetime('now'), 'Connection timeout after 30s', json_object('event', 'retry', 'retry_attempt', 2, 'max_retries', 3));
INSERT INTO execution (statement_index, status, started_at, completed_at, error_message, metadata)
VALUES (15, 'failed', datetime('now'), datetime('now'), 'Connection timeout after 30s', json_object('event', 'error'));`,
  },
} satisfies Record<string, SeedCorrection>;
