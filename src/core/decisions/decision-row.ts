import type { Edition } from '../editions.ts';

/** One row of the decisions table: what the spec says, what we pinned, and why. */
export interface DecisionRow {
  /** Stable id, e.g. `attachment-threshold`. */
  id: string;
  /** The topic area, used to group rows in docs/decisions.md. */
  area: string;
  /** What the spec text says (paraphrased), with the document it comes from. */
  spec: string;
  /** Our choice. */
  choice: string;
  /** Why. */
  why: string;
  /**
   * The editions of the spec the row is for (docs/editions.md): absent, it holds for both, as a case's `editions:`
   * does. A row pinning how one edition's text is read, or how the toolkit extends one edition, names that edition.
   */
  editions?: readonly Edition[];
  /** The key in `Decisions` when the choice is configurable. */
  setting?: keyof import('../decisions.ts').Decisions;
}
