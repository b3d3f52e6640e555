import type { SourcePos } from '../source-pos.ts';
import type { Finding } from '../../verify/finding.ts';
import { StepFailure } from './step-kind.ts';

/** What a scripted session (a subagent or a render) left: the checker's verdict on its message, and that message. */
export interface CheckedSession {
  verdict: string | null;
  message: string;
  findings: Finding[];
}

/** Fails the step when the checker's rule ids were not the expected ones; else counts one more session checked. */
export function settleSession(
  step: { pos: SourcePos; findings: unknown },
  kind: string,
  r: CheckedSession,
  metrics: Record<string, number>,
  metric: string,
): void {
  if (r.verdict)
    throw new StepFailure({
      status: 'failed',
      at: step.pos,
      step: kind,
      message: r.verdict,
      expected: step.findings,
      seen: { findings: r.findings, message: r.message },
    });
  metrics[metric] = (metrics[metric] ?? 0) + 1;
}
