import type { Backend } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import {
  afterRestart,
  call,
  directoryLayoutProbe,
  expect,
  gate,
  withBackend,
  type Probe,
  type ProbeContext,
  type ProbeOutcome,
} from './probe-table.ts';

// The probes of a backend that declares world-model-only: what the bind forms (probe-table.ts) check of a binding,
// these check of a commit. Verdicts mean the same; only the write that carries them differs.

const commit = (b: Backend, run: string, node: string, truth: string) =>
  call(b, 'commitWorldModel', { run, node, contract: 'probe', files: { 'truth.json': truth } });

/** Whether `b` reads `node` of `run` as published at `version` with the probe's file. */
async function publishes(b: Backend, run: string, node: string, version: string | null, truth: string) {
  const p = await call(b, 'readPublished', { run, node });
  return p.version === version && p.files['truth.json'] === truth;
}

async function twoOpen<T>(ctx: ProbeContext, fn: (a: Backend, b: Backend) => Promise<T>): Promise<T> {
  const a = await ctx.open();
  try {
    return await withBackend(ctx, (b) => fn(a, b));
  } finally {
    await a.close().catch(() => {});
  }
}

export const COMMIT_PROBES: Partial<Record<Capability, Probe>> = {
  'world-model-only': {
    // Undeclared, a binding is kept (the off behaviour); declared, bind, appendSegment and writeEnvelope are refused.
    bothWays: true,
    offMeans: 'bind stored a binding',
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        const { run } = await call(b, 'createRun', { program: 'probe' });
        const bound = await gate(() => call(b, 'bind', { run, name: 'probe', kind: 'let', value: 'v' }));
        if (bound !== 'unsupported') return 'unsupported';
        const loc = { agent: 'probe', scope: 'execution', run, prompt: 'p', summary: 's' } as const;
        expect(
          (await gate(() => call(b, 'appendSegment', loc))) === 'unsupported',
          'bind was refused but appendSegment was not',
        );
        const envelope = { compiledIntent: { kind: 'probe' }, rootSource: 'probe\n' };
        expect(
          (await gate(() => call(b, 'writeEnvelope', { run, ...envelope }))) === 'unsupported',
          'bind was refused but writeEnvelope was not',
        );
        return 'works';
      }),
  },
  durable: {
    // Undeclared, a restart loses the run or the node (E_NOT_FOUND, or nothing published).
    bothWays: true,
    offMeans: 'a commit was gone after closing and reopening the backend',
    run: async (ctx) => {
      const { run, version } = await withBackend(ctx, async (b) => {
        const r = await call(b, 'createRun', { program: 'probe' });
        return { run: r.run, version: (await commit(b, r.run, 'probe', '"kept"')).version };
      });
      return withBackend<ProbeOutcome>(ctx, async (b) => {
        const got = await afterRestart(() => call(b, 'readPublished', { run, node: 'probe' }));
        if (got === 'unsupported' || got.version === null) return 'unsupported';
        expect(
          got.version === version && got.files['truth.json'] === '"kept"',
          `after a restart the node publishes ${got.version}, not ${version}`,
        );
        return 'works';
      });
    },
  },
  'multi-process': {
    bothWays: false,
    run: (ctx) =>
      twoOpen(ctx, async (a, b) => {
        const { run } = await call(a, 'createRun', { program: 'probe' });
        const c = await commit(a, run, 'probe', '"shared"');
        expect(
          await publishes(b, run, 'probe', c.version, '"shared"'),
          "a second open instance does not see the first one's commit",
        );
        return 'works' as ProbeOutcome;
      }),
  },
  'concurrent-writers': {
    // Two instances commit at once, each its own node (one writer per node, decision wm-single-writer): each chain
    // holds its two commits in order, and each writer sees the other's node.
    bothWays: false,
    run: (ctx) =>
      twoOpen(ctx, async (a, b) => {
        const { run } = await call(a, 'createRun', { program: 'probe' });
        const writers = [a, b, a, b];
        const acks = await Promise.all(writers.map((x, i) => commit(x, run, `probe-${i % 2}`, JSON.stringify(i))));
        for (const w of [0, 1]) {
          const node = `probe-${w}`;
          const { receipts } = await call(writers[1 - w]!, 'listReceipts', { run, node });
          const got = receipts.map((r) => r.content_hash);
          const answered = [acks[w]!.contentHash, acks[w + 2]!.contentHash];
          expect(
            got.length === 2 && answered.every((h) => got.includes(h)) && receipts[1]!.prev === got[0],
            `two commits of ${node} racing another writer's left receipts ${JSON.stringify(got)}, not one chain of the two answered`,
          );
        }
        return 'works' as ProbeOutcome;
      }),
  },
  'layout:directory': directoryLayoutProbe(async (b, run) => {
    await commit(b, run, 'probe', '{}');
    return 'world-model/probe';
  }),
};
