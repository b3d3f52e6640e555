/**
 * Indexes made on pg-mem only, with the world-model tables, so its planner finds a version, a node's receipts and
 * the foreign key of a published pointer without reading every row (issue 35). pg-mem uses an index for `col = value`
 * only when the index is on that one column (buildComparison in its filter builder asks the table's getIndex for
 * the single column; a composite key never matches), and its foreign-key check filters the referenced table by an
 * AND of such equalities (ForeignKey.install). So the composite keys of world_model_version, (run_id, node, version)
 * in v0 and (node, version) in the current edition, serve only uniqueness there: a version lookup, and each insert of
 * a published pointer, scanned every version of the database (and a v0 published read every pointer). A real server plans those keys itself: none is made
 * there. The names carry `x_`, as our extension tables do (postgres.md "Prefix with `x_`").
 */
export const MEM_LOOKUP_INDEXES: readonly string[] = [
  // A version's content address alone is as selective as the whole key: one row, or one per node that stored it.
  `CREATE INDEX IF NOT EXISTS x_mem_version_address ON openprose.world_model_version (version)`,
  // A node's chain: the current edition's head (ORDER BY id DESC LIMIT 1) and a run's receipts of one node (v0).
  `CREATE INDEX IF NOT EXISTS x_mem_receipt_node ON openprose.receipt (node)`,
  // v0's published pointer is keyed (run_id, node): a read of it scanned every node's pointer of every run.
  `CREATE INDEX IF NOT EXISTS x_mem_published_node ON openprose.world_model_published (node)`,
];
