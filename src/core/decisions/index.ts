import type { DecisionRow } from './decision-row.ts';
import { CORE_DECISIONS } from './core.ts';
import { CONTRACT_DECISIONS } from './contract.ts';
import { FILESYSTEM_DECISIONS } from './filesystem.ts';
import { CANON_DECISIONS } from './canon.ts';
import { POSTGRES_DECISIONS } from './postgres.ts';
import { SQLITE_DECISIONS } from './sqlite.ts';
import { VERIFY_DECISIONS } from './verify.ts';
import { WORLD_MODEL_DECISIONS } from './world-model.ts';
import { SESSION_DECISIONS } from './session.ts';
import { IN_CONTEXT_DECISIONS } from './in-context.ts';
import { PLUGIN_DECISIONS } from './plugin.ts';
import { DURABILITY_DECISIONS } from './durability.ts';
import { PLATFORM_DECISIONS } from './platforms.ts';

/** Every row of the decisions table, in the order docs/decisions.md shows them. One file per area. */
export const DECISION_ROWS: readonly DecisionRow[] = [
  ...CORE_DECISIONS,
  ...CONTRACT_DECISIONS,
  ...FILESYSTEM_DECISIONS,
  ...CANON_DECISIONS,
  ...SQLITE_DECISIONS,
  ...POSTGRES_DECISIONS,
  ...VERIFY_DECISIONS,
  ...WORLD_MODEL_DECISIONS,
  ...SESSION_DECISIONS,
  ...IN_CONTEXT_DECISIONS,
  ...PLUGIN_DECISIONS,
  ...DURABILITY_DECISIONS,
  ...PLATFORM_DECISIONS,
];

export type { DecisionRow };
