/** The counts a quick run (test --quick) caps the worker steps at; every other step runs as written. */
export interface QuickCounts {
  /** Kills per crash step and per mixed-writers step. */
  kills: number;
  /** Writer processes per concurrent step, and per side of a mixed-writers step. */
  writers: number;
  /** Items each writer writes. */
  each: number;
  /** Crash states checked per crash-states step (a seeded sample beyond it). */
  states: number;
}
