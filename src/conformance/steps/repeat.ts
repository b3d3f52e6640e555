import { isSeq, type Node } from 'yaml';
import { ProseError } from '../../core/errors.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { show } from '../match.ts';
import { interpolate } from '../template.ts';
import type { BaseStep } from '../base-step.ts';
import type { StepKind } from './step-kind.ts';

export interface RepeatStep {
  kind: 'repeat';
  pos: SourcePos;
  /** How many times (a number or a `${...}` template); `${i}` counts from 1 inside. */
  times: unknown;
  steps: BaseStep[];
}

/** The steps inside, `times` times over. */
export const repeatStep: StepKind<RepeatStep> = {
  kind: 'repeat',
  key: 'repeat',
  load(node, { p, field, pos, loadStep }) {
    checkKeys(p, node, new Set(['repeat', 'steps']), field);
    const inner = node.get('steps', true);
    if (!isSeq(inner)) throw caseError(p.file, pos.line, 'repeat needs "steps"', `${field}.steps`);
    return {
      kind: 'repeat',
      pos,
      times: toJs(p, node.get('repeat', true) as Node),
      steps: inner.items.map((s, k) => loadStep(s as Node, `${field}.steps[${k}]`)),
    };
  },
  async run(step, { vars, runSteps }) {
    const times = interpolate(step.times, vars);
    if (!Number.isSafeInteger(times))
      throw new ProseError('E_CASE', `repeat needs a whole number, got ${show(times)}`, { location: step.pos });
    // Saves inside the loop are visible after it (a chain of frames is built that way); only `i` is scoped.
    const outer = vars.i;
    for (let i = 1; i <= (times as number); i++) {
      vars.i = i;
      await runSteps(step.steps);
    }
    vars.i = outer;
  },
  explain: (step, show) => `repeat ${show(step.times)} times (\${i} counts from 1)`,
  quick: (step, _q, quickSteps) => ({ ...step, steps: quickSteps(step.steps) }),
};
