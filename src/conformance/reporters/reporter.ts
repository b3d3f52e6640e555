import type { CapabilityReport } from '../probes/capability-report.ts';
import type { CaseSource } from '../case-source.ts';
import type { Listener } from '../run-suite.ts';
import type { CaseResult } from '../outcome.ts';

/** A listener that may also write something once every backend has run (a matrix, a JUnit document). */
export interface Reporter extends Listener {
  /** Every reporter shows the capability probes (contradicted claims fail the run). */
  capabilities(r: CapabilityReport): void;
  finish(all: readonly CaseResult[]): void;
}

export type Write = (chunk: string) => void;

export interface ReporterOptions {
  verbose?: boolean;
  /** Each case's file, line and YAML by id (from the suite), for reports that point at or show the case. */
  sources?: ReadonlyMap<string, CaseSource>;
}
