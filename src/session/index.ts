export {
  checkSubagentOutput,
  SUMMARY_MAX_CHARS,
  ECHO_MIN_CHARS,
  type SubagentOutputOptions,
} from './check-subagent-output.ts';
export { buildInstructions } from './build-instructions.ts';
export { bindingLocation, memoryLocation, type InstructionRequest } from './instruction-paths.ts';
export {
  PLACEHOLDER,
  BEGIN_FILE,
  END_FILE,
  BEGIN_COMMAND,
  END_COMMAND,
  BEGIN_RETURN,
  END_RETURN,
} from './instruction-text.ts';
export { parseSignals, type Signal } from './parse-signals.ts';
export { parseConfirmation, type Confirmation } from './parse-confirmation.ts';
export { parseLocation, type Location } from './parse-location.ts';
export { checkMemoryText } from './check-memory-text.ts';
export { checkSegmentFile, checkSummary } from './check-segment-text.ts';
export { resolveRunTarget, type RunTarget, type PgQuery } from './run-target.ts';
export { nextSegmentNumber } from './next-segment.ts';
export { SESSION_RULES, type SessionRule } from './session-rules.ts';
export { sqliteProgram } from './sqlite-program.ts';
export { followInstructions, returnMessage, type SubagentWork, type FollowOptions } from './follow-instructions.ts';
export { prepareAgentDb } from './prepare-agent-db.ts';
export { runSeedSql } from './run-seed-sql.ts';
export { buildRenderInstructions, type RenderRequest } from './render-instructions.ts';
export { followRender, type RenderWork } from './follow-render.ts';
export { RENDER_RULES, type RenderRule } from './render-rules.ts';
export { runEdition } from './run-edition.ts';
