import { STORAGE_KINDS } from '../../core/backend.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { checkLayout, type LayoutCheck } from '../check-layout.ts';
import { StepFailure, type StepKind } from './step-kind.ts';

export interface LayoutStep extends LayoutCheck {
  kind: 'layout';
  pos: SourcePos;
}

const LAYOUT_KEYS = new Set([
  'layout',
  'file',
  'exists',
  'equals',
  'contains',
  'matches',
  'db',
  'query',
  'params',
  'rows',
]);
/** The storage kinds a layout step may check: every kind with a layout (not `other`). */
const STORAGES = new Set<string>(STORAGE_KINDS.filter((k) => k !== 'other'));

/** Reads the storage directly (a file, a query, the transcript) where the backend declares `layout:KIND`. */
export const layoutStep: StepKind<LayoutStep> = {
  kind: 'layout',
  key: 'layout',
  load(node, { p, field, pos }) {
    checkKeys(p, node, LAYOUT_KEYS, field);
    const js = toJs(p, node) as Record<string, unknown>;
    if (!STORAGES.has(js.layout as string))
      throw caseError(p.file, pos.line, `layout must be one of ${[...STORAGES].join(', ')}`, `${field}.layout`);
    const { layout, ...rest } = js;
    return { kind: 'layout', pos, storage: layout as LayoutStep['storage'], ...rest } as LayoutStep;
  },
  async run(step, { ctx, vars, state }) {
    const verdict = await checkLayout(step, ctx.factory, state.backend!, vars);
    if (verdict === 'n/a') state.layoutNotApplicable += 1;
    else if (verdict)
      throw new StepFailure({ status: 'failed', at: step.pos, step: `layout ${step.storage}`, message: verdict });
    else state.layoutChecks += 1;
  },
  explain(step, show) {
    const what =
      step.file !== undefined
        ? `file ${show(step.file)}`
        : step.query !== undefined
          ? `query ${show(step.query)}`
          : 'the transcript';
    return `layout ${step.storage}: read ${what} directly (no message; run only where layout:${step.storage} is declared)`;
  },
};
