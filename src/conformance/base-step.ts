import type { SourcePos } from './source-pos.ts';

/**
 * What every step is: step files and the runner's context see steps as this, so none of them names the union of
 * all kinds (step-kinds.ts derives it from its table; a step file naming it would import the table that imports it).
 */
export interface BaseStep {
  kind: string;
  pos: SourcePos;
}
