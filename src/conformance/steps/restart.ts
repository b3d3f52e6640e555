import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Node } from 'yaml';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { withTimeout } from '../with-timeout.ts';
import type { StepKind } from './step-kind.ts';

export interface RestartStep {
  kind: 'restart';
  pos: SourcePos;
  /**
   * `restart: {project: NAME}`: reopen on another project directory with the same home directory (the VM moved to
   * another project), so user-scope state must carry over and project-scope state stays behind.
   */
  project?: string;
}

/** Close the backend and open it again on the same storage: what was committed must still be there. */
export const restartStep: StepKind<RestartStep> = {
  kind: 'restart',
  key: 'restart',
  loadWord: (pos) => ({ kind: 'restart', pos }),
  load(node, { p, field, pos }) {
    checkKeys(p, node, new Set(['restart']), field);
    const body = toJs(p, node.get('restart', true) as Node) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).some((k) => k !== 'project')) {
      throw caseError(
        p.file,
        pos.line,
        'restart takes {project: NAME} (or is the word restart alone)',
        `${field}.restart`,
      );
    }
    if (typeof body.project !== 'string' || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(body.project)) {
      throw caseError(
        p.file,
        pos.line,
        'restart.project is a lowercase name ([a-z0-9-], at most 40): the directory the case moves to',
        `${field}.restart.project`,
      );
    }
    return { kind: 'restart', pos, project: body.project };
  },
  async run(step, { ctx, env, state }) {
    await state.backend!.close();
    state.backend = undefined;
    if (step.project !== undefined) {
      // Another project, the same home: every later step (layout, subagents) sees the new project directory.
      env.projectDir = join(ctx.dir, `project-${step.project}`);
      mkdirSync(env.projectDir, { recursive: true });
    }
    state.backend = await withTimeout(ctx.factory.open(env), ctx.stepTimeoutMs, 'reopening the backend');
  },
  explain: (step) =>
    `restart: close the backend, open it again on the same storage${step.project ? ` in project ${step.project}` : ''}`,
  implies: () => ['durable'],
};
