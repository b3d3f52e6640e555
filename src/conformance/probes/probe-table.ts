import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultActor } from '../../core/actor.ts';
import type { Backend, BackendEnv } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import { ProseError } from '../../core/errors.ts';
import { OPS, type OpArgs, type OpName, type OpResults } from '../../core/ops.ts';
import { DEFAULT_EDITION, editionLayout, type Edition } from '../../core/editions.ts';

// One short op sequence per capability (capability-probes.ts runs them and judges the outcome).
/** `works`: every step answered as the capability says; `unsupported`: the first step refused as an undeclared one must. */
export type ProbeOutcome = 'works' | 'unsupported';

export interface ProbeContext {
  env: BackendEnv;
  open(): Promise<Backend>;
  /** Opens the backend on other storage (the edition probes open each edition on a fresh tree of its own). */
  openOn(env: BackendEnv): Promise<Backend>;
}

export interface Probe {
  /** Probed also when undeclared: only where an undeclared capability has an answer to check. */
  bothWays: boolean;
  /** What `unsupported` means where no call is refused (durable, attachments), for a declared capability's report. */
  offMeans?: string;
  run(ctx: ProbeContext): Promise<ProbeOutcome>;
}

/** A step answered wrongly; the message says which step and what came back. */
export class Broken extends Error {}

export const call = <K extends OpName>(b: Backend, op: K, args: OpArgs[K]): Promise<OpResults[K]> =>
  b.call(op, args, defaultActor(op, args));

export function expect(ok: boolean, what: string): void {
  if (!ok) throw new Broken(what);
}

/** The first step of a probe: E_UNSUPPORTED there means the capability is cleanly refused. */
export async function gate<T>(step: () => Promise<T>): Promise<T | 'unsupported'> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ProseError && err.code === 'E_UNSUPPORTED') return 'unsupported';
    throw err;
  }
}

/** A read after a restart: E_NOT_FOUND there is the write lost, what an undeclared `durable` answers. */
export function afterRestart<T>(read: () => Promise<T>): Promise<T | 'unsupported'> {
  return gate(async () => {
    try {
      return await read();
    } catch (err) {
      if (err instanceof ProseError && err.code === 'E_NOT_FOUND')
        throw new ProseError('E_UNSUPPORTED', 'lost on restart');
      throw err;
    }
  });
}

export async function withBackend<T = ProbeOutcome>(ctx: ProbeContext, fn: (b: Backend) => Promise<T>): Promise<T> {
  const b = await ctx.open();
  try {
    return await fn(b);
  } finally {
    await b.close().catch(() => {});
  }
}

const memoryProbe = (scope: 'project' | 'user' | 'custom'): Probe => ({
  bothWays: true,
  run: (ctx) =>
    withBackend<ProbeOutcome>(ctx, async (b) => {
      const loc = { agent: `probe-${scope}`, scope, ...(scope === 'custom' ? { path: 'probe-custom' } : {}) } as const;
      const w = await gate(() => call(b, 'writeMemory', { ...loc, memory: 'probe memory' }));
      if (w === 'unsupported') return 'unsupported';
      expect(
        (await call(b, 'readMemory', loc)).memory === 'probe memory',
        `readMemory in ${scope} scope did not return what writeMemory wrote`,
      );
      const seg = await call(b, 'appendSegment', { ...loc, prompt: 'probe', summary: 'probe' });
      expect(
        Number.isSafeInteger(seg.number) && seg.number >= 1,
        `appendSegment in ${scope} scope answered number ${JSON.stringify(seg.number)}`,
      );
      return 'works';
    }),
});

export const PROBES: Partial<Record<Capability, Probe>> = {
  'project-scope': memoryProbe('project'),
  'user-scope': memoryProbe('user'),
  'custom-scope': memoryProbe('custom'),
  imports: {
    bothWays: true,
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        const { run } = await call(b, 'createRun', { program: 'probe' });
        const imp = await gate(() =>
          call(b, 'createImport', { run, handle: 'probe', slug: 'probe', program: 'imported' }),
        );
        if (imp === 'unsupported') return 'unsupported';
        expect(
          (await call(b, 'getRun', { run: imp.run })).program === 'imported',
          'getRun on the import did not return its program',
        );
        return 'works';
      }),
  },
  'world-model': {
    bothWays: true,
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        const { run } = await call(b, 'createRun', { program: 'probe' });
        const c = await gate(() =>
          call(b, 'commitWorldModel', { run, node: 'probe', contract: 'probe', files: { 'truth.json': '{}' } }),
        );
        if (c === 'unsupported') return 'unsupported';
        expect(
          c.status === 'rendered' && /^sha256:[0-9a-f]{64}$/.test(c.version ?? ''),
          `commitWorldModel answered ${JSON.stringify(c)}`,
        );
        const p = await call(b, 'readPublished', { run, node: 'probe' });
        expect(
          p.version === c.version && p.files['truth.json'] === '{}',
          'readPublished did not return the committed version',
        );
        return 'works';
      }),
  },
  receipts: {
    bothWays: true,
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        const { run } = await call(b, 'createRun', { program: 'probe' });
        const r = await gate(() => call(b, 'listReceipts', { run }));
        if (r === 'unsupported') return 'unsupported';
        expect(
          Array.isArray(r.receipts) && r.receipts.length === 0,
          `listReceipts of a new run answered ${JSON.stringify(r)}`,
        );
        return probeLedger(b, run);
      }),
  },
  attachments: {
    // Undeclared, a large value is stored inline: attached false, read back whole (there is no call to refuse); a
    // backend without bindings (world-model-only) refuses bind itself and has nothing to attach.
    bothWays: true,
    offMeans:
      'a value over the attachment threshold was stored inline (attached false), or bind answered E_UNSUPPORTED',
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        const { run } = await call(b, 'createRun', { program: 'probe' });
        const value = 'x'.repeat(ctx.env.decisions.attachmentThresholdBytes + 1);
        const bound = await gate(() => call(b, 'bind', { run, name: 'probe', kind: 'let', value }));
        if (bound === 'unsupported') return 'unsupported';
        const back = await call(b, 'resolve', { run, name: 'probe' });
        expect(back.value === value, 'a value over the attachment threshold did not read back whole');
        expect(
          back.attached === bound.attached,
          `bind said attached ${bound.attached} but resolve said ${back.attached}`,
        );
        return bound.attached ? 'works' : 'unsupported';
      }),
  },
  durable: {
    // Undeclared, a restart loses the run (E_NOT_FOUND); keeping it is reported as undeclared-but-works.
    bothWays: true,
    offMeans: 'a binding was gone after closing and reopening the backend (E_NOT_FOUND)',
    run: async (ctx) => {
      const { run } = await withBackend(ctx, async (b) => {
        const r = await call(b, 'createRun', { program: 'probe' });
        await call(b, 'bind', { run: r.run, name: 'probe', kind: 'let', value: 'kept' });
        return r;
      });
      return withBackend<ProbeOutcome>(ctx, async (b) => {
        const got = await afterRestart(() => call(b, 'resolve', { run, name: 'probe' }));
        if (got === 'unsupported') return 'unsupported';
        expect(got.value === 'kept', `after a restart the binding reads ${JSON.stringify(got.value)}, not "kept"`);
        return 'works';
      });
    },
  },
  'concurrent-writers': {
    bothWays: false,
    run: async (ctx) => {
      const a = await ctx.open();
      try {
        const b = await ctx.open();
        try {
          const { run } = await call(a, 'createRun', { program: 'probe' });
          const loc = { agent: 'probe-concurrent', scope: 'execution', run } as const;
          const segs = await Promise.all(
            [a, b, a, b].map((x) => call(x, 'appendSegment', { ...loc, prompt: 'p', summary: 's' })),
          );
          await Promise.all([
            call(a, 'bind', { run, name: 'pa', kind: 'let', value: 'a' }),
            call(b, 'bind', { run, name: 'pb', kind: 'let', value: 'b' }),
          ]);
          const numbers = segs.map((s) => s.number).sort((x, y) => x - y);
          expect(numbers.join() === '1,2,3,4', `four concurrent appendSegment calls got numbers ${numbers.join(', ')}`);
          expect(
            (await call(a, 'resolve', { run, name: 'pb' })).value === 'b',
            'a binding written by the other writer is not visible',
          );
          return 'works';
        } finally {
          await b.close().catch(() => {});
        }
      } finally {
        await a.close().catch(() => {});
      }
    },
  },
  'multi-process': {
    // A second instance open at the same time sees what the first committed (the runner's child-process areas).
    bothWays: false,
    run: async (ctx) => {
      const a = await ctx.open();
      try {
        const { run } = await call(a, 'createRun', { program: 'probe' });
        await call(a, 'bind', { run, name: 'probe', kind: 'let', value: 'shared' });
        return await withBackend<ProbeOutcome>(ctx, async (b) => {
          expect(
            (await call(b, 'resolve', { run, name: 'probe' })).value === 'shared',
            "a second open instance does not see the first one's binding",
          );
          return 'works';
        });
      } finally {
        await a.close().catch(() => {});
      }
    },
  },
  'layout:directory': directoryLayoutProbe(async (b, run, edition) => {
    await call(b, 'bind', { run, name: 'probe', kind: 'let', value: 'v' });
    // v0 names every binding's file; the current edition keeps a run's outputs elsewhere, so its run directory is
    // what is checked here (its marker file is the edition probe's).
    return edition === 'current' ? '' : 'bindings/probe.md';
  }),
};

for (const kind of ['sqlite', 'postgres', 'transcript'] as const) {
  PROBES[`layout:${kind}`] = {
    // Undeclared, the storage view (if any) is of another kind: a view of this kind is an undeclared layout.
    bothWays: true,
    offMeans: `storage() is not a ${kind} view`,
    run: (ctx) => withBackend<ProbeOutcome>(ctx, async (b) => (b.storage?.().kind === kind ? 'works' : 'unsupported')),
  };
}

/**
 * Undeclared, the storage view (if any) is of another kind; declared, the seed tree is really written: `write` makes
 * the probe's write in a new run and answers the path under the run directory it must have made ('' for the
 * directory itself).
 */
export function directoryLayoutProbe(write: (b: Backend, run: string, edition: Edition) => Promise<string>): Probe {
  return {
    bothWays: true,
    offMeans: 'storage() is not a directory view',
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        if (b.storage?.().kind !== 'directory') return 'unsupported';
        const edition = ctx.env.edition ?? DEFAULT_EDITION;
        const { runId, run } = await call(b, 'createRun', { program: 'probe' });
        const rel = await write(b, run, edition);
        const file = join(ctx.env.projectDir, editionLayout(edition).runsDir, runId, ...rel.split('/').filter(Boolean));
        expect(existsSync(file), `no ${file}`);
        return 'works';
      }),
  };
}

/**
 * With world-model too, the ledger must hold what commits appended: one receipt per commit carrying its content
 * hash, chained per node by prev. Without it (commitWorldModel answers E_UNSUPPORTED) the empty ledger is all there is.
 */
async function probeLedger(b: Backend, run: string): Promise<ProbeOutcome> {
  const first = await gate(() =>
    call(b, 'commitWorldModel', { run, node: 'probe', contract: 'probe', files: { 'truth.json': '{}' } }),
  );
  if (first === 'unsupported') return 'works';
  const second = await call(b, 'commitWorldModel', {
    run,
    node: 'probe',
    contract: 'probe',
    files: { 'truth.json': '{"n":2}' },
  });
  const { receipts } = await call(b, 'listReceipts', { run, node: 'probe' });
  const hashes = receipts.map((r) => r.content_hash);
  expect(
    hashes.join() === [first.contentHash, second.contentHash].join(),
    `after two commits listReceipts holds content hashes ${JSON.stringify(hashes)}, not the two the commits answered`,
  );
  // The first commit chains to whatever came before it (null in a fresh run; the node's durable chain where it
  // outlives runs, decision current-durable-store), as its own answer says.
  expect(
    receipts[0]!.prev === first.prev && receipts[1]!.prev === first.contentHash,
    `the receipts are not chained: prev ${JSON.stringify(receipts.map((r) => r.prev))}`,
  );
  return 'works';
}

/** Why a declared capability has no probe, where it is known; otherwise "no probe for this capability yet". */
export const UNPROBED: Partial<Record<Capability, string>> = {
  'subagent-writes': 'a probe would need a subagent following session.md; the session-protocol area exercises it',
  'native-sqlite3-beside':
    'a probe would need the real sqlite3 writing beside the backend; the sqlite-mixed-writers area exercises it where sqlite3 is on PATH',
};

/** Capabilities whose operations exist but have no probe yet: undeclared, their first op must answer E_UNSUPPORTED. */
export function genericProbe(capability: Capability): Probe | undefined {
  const op = (Object.keys(OPS) as OpName[]).find((o) => OPS[o].capability === capability);
  if (!op) return undefined;
  return {
    bothWays: true,
    run: (ctx) =>
      withBackend<ProbeOutcome>(ctx, async (b) => {
        const r = await gate(() => b.call(op, {} as never, defaultActor(op, {} as never)));
        if (r === 'unsupported') return 'unsupported';
        throw new Broken(`${op} with no arguments answered ${JSON.stringify(r)} instead of E_UNSUPPORTED`);
      }),
  };
}
