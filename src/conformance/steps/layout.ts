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
  'entries',
  'hashesTo',
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
    checkDirectoryFields(p.file, pos.line, field, js);
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
        ? `${step.entries !== undefined || step.hashesTo !== undefined ? 'directory' : 'file'} ${show(step.file)}`
        : step.query !== undefined
          ? `query ${show(step.query)}`
          : 'the transcript';
    return `layout ${step.storage}: read ${what} directly (no message; run only where layout:${step.storage} is declared)`;
  },
};

/** `entries:` (a list of names) and `hashesTo:` (a file name) judge the directory `file:` names. */
function checkDirectoryFields(file: string, line: number, field: string, js: Record<string, unknown>): void {
  const { entries, hashesTo } = js;
  if (entries !== undefined && !(Array.isArray(entries) && entries.every((e) => typeof e === 'string' && e !== '')))
    throw caseError(file, line, 'entries must be a list of entry names', `${field}.entries`);
  if (hashesTo !== undefined && (typeof hashesTo !== 'string' || hashesTo === '' || hashesTo.includes('/')))
    throw caseError(file, line, 'hashesTo must name a file in the directory, e.g. .version', `${field}.hashesTo`);
  if ((entries !== undefined || hashesTo !== undefined) && typeof js.file !== 'string')
    throw caseError(file, line, 'entries and hashesTo judge the directory named by file:', `${field}.file`);
  for (const k of ['equals', 'contains', 'matches', 'exists'])
    if ((entries !== undefined || hashesTo !== undefined) && js[k] !== undefined)
      throw caseError(
        file,
        line,
        `${k} judges a file's text; entries and hashesTo a directory: use two steps`,
        `${field}.${k}`,
      );
}
