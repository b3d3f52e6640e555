import type { RunRef } from '../../core/model.ts';
import type { WorldModelStore } from '../../core/store.ts';
import type { NarrationEvent } from '../../transcript/narration-event.ts';
import { versionKey, type RunModel, type TranscriptModel } from './transcript-model.ts';

/** What the world-model narration needs of the transcript store: say lines for a run, and read a run back. */
export interface Narrator {
  say(run: RunRef | undefined, events: { e: NarrationEvent }[]): string;
  runOf(run: RunRef): RunModel;
  conversationModel(): TranscriptModel;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/**
 * The canonical store narrated into the conversation: `[WorldModel] Version stored` with the OPWM1 bytes in base64,
 * `[WorldModel] Published`, `[Receipt] NODE: "..."`, the workspace and the run envelope. Semantics (addresses,
 * chaining, skips) come from src/canon through the shared semantics; this only says and remembers.
 */
export class TranscriptWorldModel implements WorldModelStore {
  /**
   * @param acrossRuns the current edition: a node's chain, published version and stored versions last as long as the
   * conversation, not the run (decision in-context-current-ledger), as the durable state/ does on a file system.
   */
  constructor(
    private readonly t: Narrator,
    acrossRuns = false,
  ) {
    if (acrossRuns) this.readChainHead = async (run, node) => this.across(run).lastReceipt.get(node);
    this.acrossRuns = acrossRuns;
  }

  private readonly acrossRuns: boolean;

  /** Set only in the current edition (core/store.ts): v0's chains are per run. */
  readonly readChainHead?: (run: RunRef, node: string) => Promise<string | undefined>;

  /** The conversation's store across runs, once `run` is known to be one of its runs. */
  private across(run: RunRef): TranscriptModel['acrossRuns'] {
    this.t.runOf(run);
    return this.t.conversationModel().acrossRuns;
  }

  private tell(run: RunRef, e: NarrationEvent): void {
    this.t.say(run, [{ e }]);
  }

  /** The version's base64 text as this run can read it: its own, or in the current edition any run's. */
  private versionText(run: RunRef, node: string, address: string): string | undefined {
    const key = versionKey(node, address);
    const own = this.t.runOf(run).wm.versions.get(key);
    return own ?? (this.acrossRuns ? this.across(run).versions.get(key) : undefined);
  }

  async writeVersion(run: RunRef, node: string, address: string, bytes: Uint8Array): Promise<void> {
    if (this.versionText(run, node, address) !== undefined) return;
    this.tell(run, { kind: 'wm-version', node, address, bytes: b64(bytes) });
  }

  async readVersion(run: RunRef, node: string, address: string): Promise<Uint8Array | undefined> {
    const text = this.versionText(run, node, address);
    return text === undefined ? undefined : unb64(text);
  }

  async publish(run: RunRef, node: string, address: string): Promise<void> {
    this.tell(run, { kind: 'wm-publish', node, address });
  }

  /** The run's published version; in the current edition, before the run publishes the node, the conversation's. */
  async readPublished(run: RunRef, node: string): Promise<string | null> {
    const own = this.t.runOf(run).wm.published.get(node);
    return own ?? (this.acrossRuns ? (this.across(run).published.get(node) ?? null) : null);
  }

  async appendReceipt(run: RunRef, node: string, receiptJson: string): Promise<void> {
    this.tell(run, { kind: 'receipt', node, receipt: receiptJson });
  }

  async readReceipts(run: RunRef, node?: string): Promise<string[]> {
    const wm = this.t.runOf(run).wm;
    if (node !== undefined) return [...(wm.receiptsOf.get(node) ?? [])];
    return wm.receipts.map((r) => r.receipt);
  }

  async writeWorkspace(run: RunRef, node: string, bytes: Uint8Array): Promise<void> {
    this.tell(run, { kind: 'wm-workspace', node, bytes: b64(bytes) });
  }

  async writeEnvelope(
    run: RunRef,
    envelope: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> },
  ): Promise<void> {
    this.tell(run, { kind: 'envelope', ...envelope });
  }

  async readEnvelope(
    run: RunRef,
  ): Promise<{ compiledIntentJson: string; rootSource: string; sources: Record<string, string> } | undefined> {
    const e = this.t.runOf(run).wm.envelope;
    return e && { compiledIntentJson: e.compiledIntentJson, rootSource: e.rootSource, sources: { ...e.sources } };
  }
}
