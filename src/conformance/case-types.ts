import type { Capability } from '../core/capabilities.ts';
import type { Edition } from '../core/editions.ts';
import type { Readings } from './case-readings.ts';
import type { SourcePos } from './source-pos.ts';
import type { Step } from './steps/step-kinds.ts';

// Each step kind's type lives in its own file under steps/; the union of them is derived from the dispatcher's table.
export type { Step } from './steps/step-kinds.ts';
export type { LayoutStep } from './steps/layout.ts';

export interface Case {
  id: string;
  area: string;
  title: string;
  /** The spec section the case checks. */
  spec: string;
  requires: Capability[];
  /** The editions whose text the case checks (file or case field `editions`; default every edition). */
  editions: Edition[];
  /** The readings of choice decisions the case checks (`readings:`, file or case); absent: it holds under any. */
  readings?: Readings;
  /** When true (the default) the runner creates a run first and saves it as `${run}`. */
  run: boolean;
  steps: Step[];
  pos: SourcePos;
}

export interface Suite {
  name: string;
  version: string;
  dir: string;
  cases: Case[];
}
