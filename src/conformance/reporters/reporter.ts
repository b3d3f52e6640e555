import type { Listener } from '../run-suite.ts';
import type { CaseResult } from '../outcome.ts';

/** A listener that may also write something once every backend has run (a matrix, a JUnit document). */
export interface Reporter extends Listener {
  finish(all: readonly CaseResult[]): void;
}

export type Write = (chunk: string) => void;
