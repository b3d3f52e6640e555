import { VM } from '../../core/actor.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

// The render cases run only in the current edition; they are the session-protocol area's (render-protocol.yaml).
const CURRENT = { edition: 'current', areas: ['session-protocol'] } as const;

/**
 * The current edition's render contract (conformance/cases/render-protocol.yaml, decisions render-reply and
 * error-file-heading), judged in the current edition on the session-protocol cases.
 */
export const RENDER_MUTANTS: Mutant[] = [
  mutant(
    'render-commits-own-world-model',
    "a render may commit (or fail) its own node's world-model: a subagent call for the node it renders is taken as the VM's",
    {
      ...CURRENT,
      intercept: (op, args, actor, ctx) =>
        (op === 'commitWorldModel' || op === 'failRender') && actor.role === 'subagent' && actor.binding === args.node
          ? pass(op, args, VM, ctx)
          : pass(op, args, actor, ctx),
    },
  ),
  mutant('checker-v0-reply-accepted', 'the render checker takes a v0 "Binding written:" reply as a render reply', {
    ...CURRENT,
    checker: (findings) =>
      findings.some((f) => f.rule === 'render.reply-v0')
        ? findings.filter((f) => !f.rule.startsWith('render.'))
        : findings,
  }),
  mutant(
    'checker-mixed-reply-accepted',
    "the render checker accepts a reply mixing prose.md's and session.md's lines",
    {
      ...CURRENT,
      checker: (findings) => findings.filter((f) => f.rule !== 'render.reply-mixed'),
    },
  ),
];
