import { join } from 'node:path';
import { contentAddressOf } from '../../canon/content-address.ts';
import { artifactAddress } from '../../canon/opwm1.ts';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import type { RunChain } from './check-run-receipts.ts';
import { listNames } from './list-names.ts';
import { readBytes } from './read-bytes.ts';
import { readTree } from './read-tree.ts';

type Sink = RunSink;
/** fs names a version by its ContentAddress; `:` cannot be in a file name everywhere, so `_` (and `.bin`) too. */
const NAME = /^sha256[:_]([a-f0-9]{64})(\.bin)?$/;

/**
 * `state/world-model/{node}/versions/`, where present: each entry is named by the address of what it holds (OPWM1
 * bytes in a file, or the files of a directory), and each version this run rendered is there.
 */
export function checkDurableVersions(
  run: string,
  rel: string,
  node: string,
  chain: RunChain,
  sink: Sink,
  ledgerFile = `receipts/${node}.jsonl`,
): void {
  const vRel = `${rel}/versions`;
  if (!isKind(join(run, vRel), 'dir')) return;
  const stored = new Set<string>();
  for (const name of listNames(join(run, vRel))) {
    const file = `${vRel}/${name}`;
    const m = NAME.exec(name);
    const address = m ? addressOf(join(run, file), sink.maxFileBytes) : undefined;
    if (!m) sink.add('durable.versions', `${file} is not named by a ContentAddress`, { file });
    // Refused (a link, special or too large entry): the tree scan reported it; taken as named, not checked.
    else if (address === null) stored.add(`sha256:${m[1]}`);
    else if (address !== `sha256:${m[1]}`) sink.add('durable.versions', `${file} hashes to ${address}`, { file });
    else stored.add(address);
  }
  for (const r of chain.ledger.rendered)
    if (!stored.has(r.atomic))
      sink.add('durable.versions', `rendered receipt ${r.index} has @atomic ${r.atomic}, which is not under ${vRel}/`, {
        file: ledgerFile,
        line: chain.file.lines[r.index],
      });
}

/** null when the entry is refused. */
function addressOf(path: string, maxBytes: number): string | null {
  if (isKind(path, 'dir')) {
    const tree = readTree(path, maxBytes);
    if ('refused' in tree) return null;
    if ('error' in tree) return `nothing: ${tree.error}`;
    try {
      return artifactAddress(tree.files);
    } catch (err) {
      return `nothing: ${(err as Error).message}`;
    }
  }
  const read = readBytes(path, maxBytes);
  if ('refused' in read) return null;
  return 'error' in read ? `nothing: it ${read.error}` : contentAddressOf(read.bytes);
}
