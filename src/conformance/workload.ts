import type { Actor } from '../core/actor.ts';
import type { Capability } from '../core/capabilities.ts';
import type { OpName } from '../core/ops.ts';
import { keepsOnlyWorldModel } from '../core/world-model-only.ts';

/**
 * The write workloads of the crash and concurrency areas. Item `i` of writer `w` is the same call in the worker
 * process that makes it and in the checker that looks for it afterwards, so "acknowledged" can be checked exactly.
 */
export const WORKLOADS = ['bindings', 'segments', 'anon', 'events', 'world-model', 'mixed'] as const;
export type Workload = (typeof WORKLOADS)[number];

export interface WorkItem {
  /** What the worker prints after `ack ` once the call has returned. */
  key: string;
  op: OpName;
  args: Record<string, unknown>;
  actor: Actor;
}

/** A value that is deterministic per item, of varied length: some cross the attachment threshold. */
export function itemValue(writer: number, i: number, thresholdBytes: number): string {
  const head = `writer ${writer} item ${i}\n---\nline two é ${'✓'.repeat(i % 7)}\r\n`;
  return i % 50 === 49 ? head + 'x'.repeat(thresholdBytes + 1) : head + 'y'.repeat((i * 37) % 900);
}

export function workItem(
  workload: Workload,
  run: string,
  writer: number,
  i: number,
  caps: readonly Capability[],
  thresholdBytes: number,
): WorkItem {
  // A backend without bindings writes every workload as commits (each writer its own node): the form its crash,
  // concurrency and crash-states cases can check.
  const kind = keepsOnlyWorldModel(caps) ? 'world-model' : workload === 'mixed' ? mixedKind(i, caps) : workload;
  return ITEMS[kind]({ run, writer, i, thresholdBytes });
}

type ItemKind = Exclude<Workload, 'mixed'> | 'world-model';
type ItemOf = (at: { run: string; writer: number; i: number; thresholdBytes: number }) => WorkItem;

/** Item i of a writer, by the kind of workload (a table over every kind, so none is left without one). */
const ITEMS: Record<ItemKind, ItemOf> = {
  bindings: ({ run, writer, i, thresholdBytes }) => {
    const name = `w${writer}_${i}`;
    return {
      key: `binding ${name}`,
      op: 'bind',
      args: {
        run,
        name,
        kind: 'let',
        value: itemValue(writer, i, thresholdBytes),
        source: `let ${name} = session "item ${i}"`,
      },
      actor: { role: 'subagent', binding: name, executionId: null },
    };
  },
  segments: ({ run, writer, i }) => ({
    key: `segment w${writer}_${i}`,
    op: 'appendSegment',
    args: {
      run,
      agent: 'captain',
      scope: 'execution',
      prompt: `w${writer}_${i}`,
      summary: `- Reviewed: item ${i} of writer ${writer}`,
    },
    actor: { role: 'subagent', agent: 'captain' },
  }),
  anon: ({ run, writer, i }) => ({
    key: `anon w${writer}_${i}`,
    op: 'allocateAnon',
    args: { run },
    actor: { role: 'vm' },
  }),
  events: ({ run, writer, i }) => ({
    key: `event w${writer}_${i}`,
    op: 'recordEvent',
    args: {
      run,
      event: {
        type: 'statement',
        index: writer * 1_000_000 + i,
        text: `session "w${writer} ${i}"`,
        status: 'completed',
      },
    },
    actor: { role: 'vm' },
  }),
  'world-model': ({ run, writer, i }) => ({
    key: `commit w${writer}_${i}`,
    op: 'commitWorldModel',
    args: {
      run,
      node: `node-${writer}`,
      files: { 'truth.json': JSON.stringify({ writer, i }), 'notes.md': itemValue(writer, i, 200) },
      contract: 'contract:crash',
    },
    actor: { role: 'vm' },
  }),
};

function mixedKind(i: number, caps: readonly Capability[]): Exclude<Workload, 'mixed'> | 'world-model' {
  const kinds: (Exclude<Workload, 'mixed'> | 'world-model')[] = ['bindings', 'segments', 'bindings', 'events', 'anon'];
  if (caps.includes('world-model')) kinds.push('world-model');
  return kinds[i % kinds.length]!;
}

/** A small seeded generator (mulberry32), so a crash run can be replayed from its printed seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
