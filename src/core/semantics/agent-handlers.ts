import { ProseError } from '../errors.ts';
import { isIsoDateTime, isoSeconds } from '../time-format.ts';
import { agentLocation } from './agent-location.ts';
import type { SemanticsContext } from './context.ts';
import type { HandlerGroup } from './handler-types.ts';

type AgentOp = 'writeMemory' | 'readMemory' | 'appendSegment' | 'listSegments';

/** Persistent agents: their memory and their numbered segments, in whichever scope they live. */
export function agentHandlers(ctx: SemanticsContext): HandlerGroup<AgentOp> {
  const { store } = ctx;
  return {
    async writeMemory(a) {
      return store.writeMemory(await agentLocation(ctx, a), a.memory);
    },
    async readMemory(a) {
      const memory = await store.readMemory(await agentLocation(ctx, a));
      if (memory === undefined) throw new ProseError('E_NOT_FOUND', `agent ${a.agent} has no ${a.scope} memory yet`);
      return { memory };
    },
    async appendSegment(a) {
      const loc = await agentLocation(ctx, a);
      if (a.timestamp !== undefined && !isIsoDateTime(a.timestamp)) {
        throw new ProseError('E_INVALID_ARGUMENT', `timestamp ${JSON.stringify(a.timestamp)} is not ISO 8601`, {
          location: { field: 'timestamp' },
          hint: 'for example 2026-01-15T14:32:15Z',
        });
      }
      const seg = await store.appendSegment(loc, {
        timestamp: a.timestamp ?? isoSeconds(ctx.now()),
        prompt: a.prompt,
        summary: a.summary,
      });
      return { number: seg.number, file: seg.file };
    },
    async listSegments(a) {
      return { segments: await store.listSegments(await agentLocation(ctx, a)) };
    },
  };
}
