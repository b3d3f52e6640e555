import type { Backend } from '../core/backend.ts';

/** The operations whose cost `bench --scale` follows as the run grows (issue 35's list). */
export const SCALE_OPS = [
  'bind',
  'resolve',
  'recordEvent',
  'allocateAnon',
  'appendSegment',
  'commitWorldModel',
  'listReceipts',
  'resume',
] as const;
export type ScaleOp = (typeof SCALE_OPS)[number];

/** A value of the size the seed's examples show (a paragraph of output). */
const VALUE = 'The reviewer found three issues in the draft; each is listed below with its line and a fix.\n'.repeat(4);

/** Statements in the program the run loops over. */
const PROGRAM = 40;

/** The node whose receipts `listReceipts` lists: its chain stays short while other nodes' chains grow. */
const LISTED_NODE = 'listed';

/**
 * One run of one backend, grown by its own contract (so a plugin is grown as a built-in one is) and timed at each
 * size. Growing adds, per unit of size, one binding and one statement event (of a 40-statement loop); and per ten, one segment and one
 * world-model commit on a node of its own, so appends and per-node reads face a ledger and an agent that grew too.
 */
export class ScaleRun {
  private bindings = 0;
  private statements = 0;
  private segments = 0;
  private commits = 0;
  private listed = 0;

  constructor(
    private readonly backend: Backend,
    readonly run: string,
    private readonly worldModel: boolean,
    private readonly receipts: boolean,
  ) {}

  /** The run's size so far (bindings, and as many statement events). */
  get size(): number {
    return this.bindings;
  }

  /** Grows the run to `size` bindings and events; `stop` is asked every 100 steps whether to give up (a budget). */
  async growTo(size: number, stop: () => boolean): Promise<boolean> {
    while (this.bindings < size) {
      if (this.bindings % 100 === 0 && stop()) return false;
      await this.bind();
      await this.recordEvent();
      if (this.bindings % 10 === 0) {
        await this.appendSegment();
        if (this.worldModel) await this.commit(`grown-${this.commits % 50}`);
      }
    }
    return true;
  }

  /** Which operations this backend can be timed on, and why not the others. */
  unsupported(): Partial<Record<ScaleOp, string>> {
    const out: Partial<Record<ScaleOp, string>> = {};
    if (!this.worldModel) out.commitWorldModel = 'the backend does not declare world-model';
    if (!this.receipts || !this.worldModel) out.listReceipts = 'the backend does not declare receipts and world-model';
    return out;
  }

  /** One call of `op`, as timed (each adds at most one row of its kind). */
  op(op: ScaleOp): () => Promise<unknown> {
    switch (op) {
      case 'bind':
        return () => this.bind();
      case 'resolve':
        return () => this.resolve();
      case 'recordEvent':
        return () => this.recordEvent();
      case 'allocateAnon':
        return () => this.backend.call('allocateAnon', { run: this.run }, { role: 'vm' });
      case 'appendSegment':
        return () => this.appendSegment();
      case 'commitWorldModel':
        return () => this.commit('timed');
      case 'listReceipts':
        return () => this.listReceipts();
      case 'resume':
        return () => this.backend.call('resume', { run: this.run }, { role: 'vm' });
    }
  }

  /** A few receipts on the listed node before its listing is timed. */
  async prepare(): Promise<void> {
    if (this.worldModel && this.listed === 0) for (; this.listed < 3; this.listed++) await this.commit(LISTED_NODE);
  }

  private async bind(): Promise<void> {
    const name = `b${this.bindings++}`;
    await this.backend.call(
      'bind',
      { run: this.run, name, kind: 'let', value: VALUE },
      { role: 'subagent', binding: name },
    );
  }

  private async resolve(): Promise<void> {
    // A name spread over the whole run, the same sequence in every backend.
    const name = `b${(this.statements * 7919) % this.bindings}`;
    const r = await this.backend.call('resolve', { run: this.run, name }, { role: 'vm' });
    if (r.value !== VALUE) throw new Error(`resolve of ${name} answered another value`);
  }

  private async recordEvent(): Promise<void> {
    // A program of PROGRAM statements run in a loop, as a long run is: the indices repeat, the log grows.
    const index = (this.statements++ % PROGRAM) + 1;
    const event = {
      type: 'statement' as const,
      index,
      text: `let s${index} = session "step"`,
      status: 'completed' as const,
    };
    await this.backend.call('recordEvent', { run: this.run, event }, { role: 'vm' });
  }

  private async appendSegment(): Promise<void> {
    const n = this.segments++;
    const args = { agent: 'scribe', scope: 'execution' as const, run: this.run, prompt: `step ${n}`, summary: VALUE };
    await this.backend.call('appendSegment', args, { role: 'subagent', agent: 'scribe' });
  }

  private async commit(node: string): Promise<void> {
    const files = { 'truth.json': JSON.stringify({ version: this.commits++ }), 'notes.md': VALUE };
    const r = await this.backend.call(
      'commitWorldModel',
      { run: this.run, node, contract: 'c', files },
      { role: 'vm' },
    );
    if (r.status !== 'rendered') throw new Error(`commitWorldModel answered ${String(r.status)} to a changed commit`);
  }

  private async listReceipts(): Promise<void> {
    const r = await this.backend.call('listReceipts', { run: this.run, node: LISTED_NODE }, { role: 'vm' });
    if (r.receipts.length < 3) throw new Error(`listReceipts of ${LISTED_NODE} answered ${r.receipts.length} receipts`);
  }
}
