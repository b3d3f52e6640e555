import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RunPaths } from '../../backends/filesystem/run-paths.ts';
import { ProseError } from '../../core/errors.ts';
import { formatSegmentFile } from '../../core/formats/segment-file.ts';
import type { AgentLocation, Segment } from '../../core/model.ts';
import { parseSegmentFileName, segmentFileName } from '../../core/numbering.ts';
import { createFileExclusive } from '../../io/atomic-write.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

/** Writes segment `n` the way the filesystem store would, so only the numbering differs. */
function writeSegment(
  env: { projectDir: string; homeDir: string },
  loc: AgentLocation,
  n: number,
  seg: Omit<Segment, 'number' | 'file'>,
  width: number,
  fileNumber = n,
): Segment {
  const dir = new RunPaths(env.projectDir, env.homeDir).agentDir(loc);
  mkdirSync(dir, { recursive: true });
  const file = segmentFileName(loc.agent, fileNumber, width);
  createFileExclusive(join(dir, file), formatSegmentFile({ number: n, ...seg }, width));
  return { number: n, file, ...seg };
}

function existing(env: { projectDir: string; homeDir: string }, loc: AgentLocation): number[] {
  try {
    return readdirSync(new RunPaths(env.projectDir, env.homeDir).agentDir(loc))
      .map((f) => parseSegmentFileName(loc.agent, f))
      .filter((n): n is number => n !== undefined);
  } catch {
    return [];
  }
}

/** Numbering and naming bugs: anonymous bindings, segments, run ids, names. */
export const NAMING_MUTANTS: Mutant[] = [
  mutant('segment-from-zero', 'the first segment is numbered 000', {
    store: (_base, env) => ({
      appendSegment: async (loc, seg) =>
        writeSegment(env, loc, existing(env, loc).length, seg, env.decisions.segmentWidth),
    }),
  }),
  mutant('segment-wraps-at-999', 'segment numbers wrap to 000 after 999 instead of growing to 1000', {
    store: (_base, env) => ({
      appendSegment: async (loc, seg) => {
        const n = existing(env, loc).length + 1;
        return writeSegment(env, loc, n % 1000, seg, env.decisions.segmentWidth, n % 1000 === 0 ? 0 : n);
      },
    }),
  }),
  mutant('segment-shared-across-scopes', 'one segment counter for an agent across execution and project scope', {
    store: (_base, env) => ({
      appendSegment: async (loc, seg) => {
        const others: AgentLocation[] =
          loc.scope === 'project' || !loc.run ? [loc] : [loc, { agent: loc.agent, scope: 'project' }];
        const n = Math.max(0, ...others.flatMap((l) => existing(env, l))) + 1;
        return writeSegment(env, loc, n, seg, env.decisions.segmentWidth);
      },
    }),
  }),
  mutant('anon-width-2', 'anonymous names are padded to two digits (anon_01)', {
    decisions: (d) => ({ ...d, anonWidth: 2 }),
  }),
  mutant('anon-counter-in-memory', 'the anonymous counter lives in memory, so a restart begins again at anon_001', {
    intercept: (() => {
      // One counter map per opened instance: what a backend holding the counter in memory would do.
      const perInstance = new WeakMap<object, Map<string, number>>();
      return async (op, args, actor, ctx) => {
        if (op !== 'allocateAnon') return pass(op, args, actor, ctx);
        await pass(op, args, actor, ctx);
        const counters = perInstance.get(ctx) ?? new Map<string, number>();
        perInstance.set(ctx, counters);
        const n = (counters.get(String(args.run)) ?? 0) + 1;
        counters.set(String(args.run), n);
        return { name: `anon_${String(n).padStart(3, '0')}` };
      };
    })(),
  }),
  mutant('anon-wraps-at-999', 'anonymous names wrap to anon_000 after anon_999', {
    intercept: async (op, args, actor, ctx) => {
      const r = (await pass(op, args, actor, ctx)) as { name?: string };
      if (op === 'allocateAnon' && r.name) {
        const n = Number(r.name.slice(5)) % 1000;
        return { name: `anon_${String(n).padStart(3, '0')}` };
      }
      return r;
    },
  }),
  mutant('run-id-uppercase', 'generated run ids use uppercase hex', {
    intercept: async (op, args, actor, ctx) => {
      if (op === 'createRun' && args.runId === undefined) {
        const r = (await pass(op, args, actor, ctx)) as { runId: string; run: string };
        return { runId: r.runId.toUpperCase(), run: r.run };
      }
      return pass(op, args, actor, ctx);
    },
  }),
  mutant('run-id-overwrite', 'creating a run with an id already taken overwrites it instead of refusing', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        if (op === 'createRun' && err instanceof ProseError && err.code === 'E_CONFLICT')
          return { runId: args.runId, run: args.runId };
        throw err;
      }
    },
  }),
  mutant('dotdot-names-accepted', 'names containing ".." are accepted (the path is joined as given)', {
    intercept: async (op, args, actor, ctx) => {
      if (op === 'bind' && typeof args.name === 'string' && args.name.includes('..') && !args.name.includes('/')) {
        const b = {
          name: args.name,
          kind: args.kind as 'let',
          value: String(args.value),
          executionId: (args.executionId as number | null) ?? null,
        };
        const r = await ctx.store.writeBinding(String(args.run), b, false);
        return { ...r, name: b.name, executionId: b.executionId, attached: false };
      }
      return pass(op, args, actor, ctx);
    },
  }),
  mutant('nfd-names-accepted', 'names are not checked for NFC, so NFD twins are accepted', {
    intercept: async (op, args, actor, ctx) => {
      if (op === 'bind' && typeof args.name === 'string' && args.name !== args.name.normalize('NFC')) {
        const b = {
          name: args.name,
          kind: args.kind as 'let',
          value: String(args.value),
          executionId: (args.executionId as number | null) ?? null,
        };
        const r = await ctx.store.writeBinding(String(args.run), b, false);
        return { ...r, name: b.name, executionId: b.executionId, attached: false };
      }
      return pass(op, args, actor, ctx);
    },
  }),
];
