import { existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { editionLayout } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { RunRef } from '../../core/model.ts';
import type { WorldModelStore } from '../../core/store.ts';
import { parseArtifact } from '../../canon/parse-artifact.ts';
import { mkdirDurable, writeFileAtomic } from '../../io/atomic-write.ts';
import { appendLedger, lastLedgerLine, readLedger } from './ledger-file.ts';
import type { RunPaths } from './run-paths.ts';

const VERSION_RE = /^sha256:[a-f0-9]{64}\n$/;

/**
 * The spec layout of a run's canonical store (filesystem.md "Directory Structure"), under the run directory:
 * - `world-model/{node}/` the published files, plus `.version` = `sha256:<hex>\n` (the published pointer);
 * - `state/world-model/{node}/versions/sha256_<hex>.bin` every committed version as OPWM1 bytes: under the run in
 *   v0 (decision wm-version-store), under `<openprose-root>` in the current edition, beside the durable
 *   `published/` (the last published version's files) and `receipts.jsonl` (every receipt, as the run appends it);
 * - `receipts/{node}.jsonl` the node's chain, one canonical JSON envelope per line;
 * - `workspace/{node}/` scratch, never fingerprinted;
 * - `compiled-intent.json` (canonical JSON + LF), `root.prose.md`, `sources/`.
 * Every file is written atomically, and a version's bytes are durable before `.version` names it.
 */
export class FsWorldModelStore implements WorldModelStore {
  constructor(
    private readonly paths: RunPaths,
    private readonly receiptAppended: (
      run: RunRef,
      node: string,
      receiptJson: string,
    ) => Promise<void> = async () => {},
  ) {
    if (editionLayout(paths.edition).durableWorldModelDir !== undefined)
      this.readChainHead = (run, node) => this.durableHead(run, node);
  }

  private dir(run: RunRef, ...parts: string[]): string {
    return join(this.paths.runDir(run), ...parts);
  }

  private versionFile(run: RunRef, node: string, address: string): string {
    const name = `${address.replace(':', '_')}.bin`;
    const durable = this.paths.durableNodeDir(node);
    if (durable !== undefined) return join(durable, 'versions', name);
    return this.dir(run, 'state', 'world-model', node, 'versions', name);
  }

  async writeVersion(run: RunRef, node: string, address: string, bytes: Uint8Array): Promise<void> {
    const file = this.versionFile(run, node, address);
    if (!existsSync(file)) writeFileAtomic(file, bytes);
  }

  async readVersion(run: RunRef, node: string, address: string): Promise<Uint8Array | undefined> {
    return readOrUndefined(this.versionFile(run, node, address));
  }

  /** Lays the version's files out in `world-model/{node}/` (stale files removed), then flips `.version`. */
  async publish(run: RunRef, node: string, address: string): Promise<void> {
    const bytes = await this.readVersion(run, node, address);
    if (!bytes)
      throw new ProseError('E_STATE', `version ${address} of ${node} is not stored; write it before publishing`);
    const dir = this.dir(run, 'world-model', node);
    materialize(dir, bytes, true);
    writeFileAtomic(join(dir, '.version'), `${address}\n`);
    const durable = this.paths.durableNodeDir(node);
    if (durable !== undefined) materialize(join(durable, 'published'), bytes, false);
  }

  /**
   * The run's `.version`; in the current edition, before the run published the node, the node's durable version: the
   * `@atomic` token of the last receipt of its chain across runs, when that version is stored.
   */
  async readPublished(run: RunRef, node: string): Promise<string | null> {
    const file = this.dir(run, 'world-model', node, '.version');
    const bytes = readOrUndefined(file);
    if (!bytes) return this.durablePublished(run, node);
    const text = Buffer.from(bytes).toString('utf8');
    if (!VERSION_RE.test(text))
      throw new ProseError('E_CORRUPT', `world-model/${node}/.version is not "sha256:<64 hex>\\n"`, {
        location: { file: `world-model/${node}/.version` },
      });
    return text.slice(0, -1);
  }

  async appendReceipt(run: RunRef, node: string, receiptJson: string): Promise<void> {
    appendLedger(this.dir(run, 'receipts', `${node}.jsonl`), `receipts/${node}.jsonl`, receiptJson);
    const durable = this.paths.durableNodeDir(node);
    if (durable !== undefined)
      appendLedger(join(durable, 'receipts.jsonl'), `state/world-model/${node}/receipts.jsonl`, receiptJson);
    await this.receiptAppended(run, node, receiptJson);
  }

  /** Set only where the edition keeps a durable ledger per node (core/store.ts): v0's chains are per run. */
  readonly readChainHead?: (run: RunRef, node: string) => Promise<string | undefined>;

  /**
   * The last receipt of the node's chain across runs. A receipt goes to the run's ledger first, then to the durable
   * one (appendReceipt): a kill between the two leaves the run's last receipt missing from the durable ledger, which
   * then catches up here before anything chains to it, so neither ledger is left with a broken prev.
   */
  private async durableHead(run: RunRef, node: string): Promise<string | undefined> {
    const ledger = this.durableLedger(node);
    if (ledger === undefined) return undefined;
    const runLast = lastLedgerLine(this.dir(run, 'receipts', `${node}.jsonl`), `receipts/${node}.jsonl`, true);
    const head = lastLedgerLine(ledger.file, ledger.rel);
    // Read whole only when the run's last receipt is not the head: missing (the kill above), or another run's came after.
    if (runLast !== undefined && runLast !== head && !readLedger(ledger.file, ledger.rel).includes(runLast)) {
      appendLedger(ledger.file, ledger.rel, runLast);
      return runLast;
    }
    return head;
  }

  /** Where the node's durable ledger is (undefined in v0, which keeps none). */
  private durableLedger(node: string): { file: string; rel: string } | undefined {
    const durable = this.paths.durableNodeDir(node);
    if (durable === undefined) return undefined;
    return { file: join(durable, 'receipts.jsonl'), rel: `state/world-model/${node}/receipts.jsonl` };
  }

  /**
   * Read only, never catching the ledger up: a run without its own `.version` has no rendered receipt of the node
   * (publishing comes before the receipt), and its skipped or failed ones copy the durable `@atomic` forward.
   */
  private async durablePublished(run: RunRef, node: string): Promise<string | null> {
    const ledger = this.durableLedger(node);
    const head = ledger && lastLedgerLine(ledger.file, ledger.rel);
    if (head === undefined) return null;
    const atomic = (JSON.parse(head) as { fingerprints?: Record<string, unknown> }).fingerprints?.['@atomic'];
    if (typeof atomic !== 'string' || !(await this.readVersion(run, node, atomic))) return null;
    return atomic;
  }

  async readReceipts(run: RunRef, node?: string): Promise<string[]> {
    const dir = this.dir(run, 'receipts');
    const files =
      node !== undefined
        ? [`${node}.jsonl`]
        : existsSync(dir)
          ? readdirSync(dir)
              .filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'))
              .sort()
          : [];
    const out: string[] = [];
    for (const f of files) out.push(...readLedger(join(dir, f), `receipts/${f}`, true));
    return out;
  }

  async writeWorkspace(run: RunRef, node: string, bytes: Uint8Array): Promise<void> {
    materialize(this.dir(run, 'workspace', node), bytes, false);
  }

  async writeEnvelope(
    run: RunRef,
    env: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> },
  ): Promise<void> {
    for (const [path, text] of Object.entries(env.sources))
      writeFileAtomic(this.dir(run, 'sources', ...path.split('/')), text);
    // README "Durable Run Envelope" names sources/ as part of every current run, so it is there even when empty.
    if (this.paths.edition === 'current') mkdirDurable(this.dir(run, 'sources'));
    writeFileAtomic(this.dir(run, 'root.prose.md'), env.rootSource);
    // Written last: its presence says the envelope is complete.
    writeFileAtomic(this.dir(run, 'compiled-intent.json'), `${env.compiledIntentJson}\n`);
  }

  async readEnvelope(
    run: RunRef,
  ): Promise<{ compiledIntentJson: string; rootSource: string; sources: Record<string, string> } | undefined> {
    const intent = readOrUndefined(this.dir(run, 'compiled-intent.json'));
    if (!intent) return undefined;
    const root = readOrUndefined(this.dir(run, 'root.prose.md'));
    if (!root)
      throw new ProseError('E_CORRUPT', 'compiled-intent.json exists but root.prose.md does not', {
        location: { file: 'root.prose.md' },
      });
    const sources: Record<string, string> = {};
    const base = this.dir(run, 'sources');
    for (const rel of listFiles(base)) sources[rel] = readFileSync(join(base, ...rel.split('/')), 'utf8');
    return {
      compiledIntentJson: Buffer.from(intent).toString('utf8').replace(/\n$/, ''),
      rootSource: Buffer.from(root).toString('utf8'),
      sources,
    };
  }
}

function readOrUndefined(file: string): Uint8Array | undefined {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Every regular file under `dir` (relative, `/`-joined); temp files of interrupted writes included. */
function listFiles(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (lstatSync(p).isDirectory()) out.push(...listFiles(p, `${prefix}${name}/`));
    else out.push(`${prefix}${name}`);
  }
  return out;
}

/**
 * Makes `dir` hold exactly the files of an OPWM1 artifact: each file written atomically (unchanged ones left
 * alone), every other file removed (a root `.version` kept when `keepVersion`), empty directories pruned.
 */
function materialize(dir: string, bytes: Uint8Array, keepVersion: boolean): void {
  const entries = parseArtifact(bytes);
  const wanted = new Set(entries.map((e) => e.path));
  for (const rel of listFiles(dir)) {
    if ((keepVersion && rel === '.version') || wanted.has(rel)) continue;
    unlinkSync(join(dir, ...rel.split('/')));
  }
  pruneEmpty(dir, true);
  for (const e of entries) {
    const file = join(dir, ...e.path.split('/'));
    const old = readOrUndefinedSafe(file);
    if (old && Buffer.compare(old, e.content) === 0) continue;
    writeFileAtomic(file, e.content);
  }
}

function readOrUndefinedSafe(file: string): Uint8Array | undefined {
  try {
    return lstatSync(file).isFile() ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

function pruneEmpty(dir: string, root: boolean): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (lstatSync(p).isDirectory()) pruneEmpty(p, false);
  }
  if (!root && readdirSync(dir).length === 0) rmdirSync(dir);
}
