import { join } from 'node:path';
import { contentAddressOf } from '../../canon/content-address.ts';
import { artifactAddress } from '../../canon/opwm1.ts';
import { isPlain } from '../../canon/validate-receipt.ts';
import { isKind } from '../kit/owned-files.ts';
import type { RunChain } from './check-run-receipts.ts';
import { listNames } from './list-names.ts';
import { readBytes } from './read-bytes.ts';
import { readTree } from './read-tree.ts';
import type { RunSink } from './run-sink.ts';

type Sink = RunSink;

/**
 * fs "workspace/ — Private Render Scratch": "Never fingerprinted". A VM that fingerprinted the scratch instead of
 * the canonical artifact leaves the workspace's address in `.version` or in a receipt: each address workspace/{node}/
 * has (the OPWM1 of the directory, the content address of each file) is looked for there. When the published files
 * are the same bytes as the scratch, the two addresses are one and nothing can be told apart: no finding.
 */
export function checkWorkspaceFingerprint(run: string, chains: Map<string, RunChain>, sink: Sink): void {
  const published = publishedAddresses(run, sink.maxFileBytes);
  for (const node of listNames(join(run, 'workspace'))) {
    if (!isKind(join(run, 'workspace', node), 'dir')) continue;
    const scratch = workspaceAddresses(run, node, sink.maxFileBytes);
    if (scratch.size === 0) continue;
    for (const address of published) scratch.delete(address);
    checkVersion(run, node, scratch, sink);
    for (const [owner, chain] of chains)
      chain.file.values.forEach((receipt, i) => {
        const hit = fingerprintIn(receipt, scratch);
        if (hit)
          sink.add(
            'wm.workspace-fingerprint',
            `receipt ${i} ${hit.field} is ${hit.address}, the address of ${scratch.get(hit.address)}`,
            { file: `receipts/${owner}.jsonl`, line: chain.file.lines[i] },
          );
      });
  }
}

/** address -> what in workspace/{node}/ has it. */
function workspaceAddresses(run: string, node: string, maxBytes: number): Map<string, string> {
  const rel = `workspace/${node}`;
  const tree = readTree(join(run, rel), maxBytes);
  const out = new Map<string, string>();
  if (!('files' in tree) || tree.files.size === 0) return out;
  try {
    out.set(artifactAddress(tree.files), `${rel}/`);
  } catch {
    // a tree OPWM1 refuses has no address to leak
  }
  for (const [path, bytes] of tree.files) out.set(contentAddressOf(bytes), `${rel}/${path}`);
  return out;
}

/**
 * Every address the published truth has: each world-model/{dir}/ (but .version) and each file in it, caller inputs
 * among them. A scratch file holding the same bytes as one of these (an input copied to the workspace) is no leak.
 */
function publishedAddresses(run: string, maxBytes: number): Set<string> {
  const out = new Set<string>();
  for (const dir of listNames(join(run, 'world-model'))) {
    const tree = readTree(join(run, 'world-model', dir), maxBytes, (p) => p !== '.version');
    if (!('files' in tree)) continue;
    try {
      out.add(artifactAddress(tree.files));
    } catch {
      // no address to compare with
    }
    for (const bytes of tree.files.values()) out.add(contentAddressOf(bytes));
  }
  return out;
}

function checkVersion(run: string, node: string, scratch: Map<string, string>, sink: Sink): void {
  const file = `world-model/${node}/.version`;
  const read = readBytes(join(run, file), sink.maxFileBytes);
  if (!('bytes' in read)) return;
  const address = Buffer.from(read.bytes).toString('latin1').trim();
  if (scratch.has(address))
    sink.add('wm.workspace-fingerprint', `.version is ${address}, the address of ${scratch.get(address)}`, { file });
}

/** The first fingerprint, input fingerprint or wake ref of `receipt` that is one of `addresses`. */
function fingerprintIn(
  receipt: unknown,
  addresses: Map<string, string>,
): { field: string; address: string } | undefined {
  if (!isPlain(receipt)) return undefined;
  const fields: [string, unknown][] = [];
  if (isPlain(receipt.fingerprints))
    for (const [k, v] of Object.entries(receipt.fingerprints)) fields.push([`fingerprints.${k}`, v]);
  if (Array.isArray(receipt.input_fingerprints))
    receipt.input_fingerprints.forEach((v, i) => fields.push([`input_fingerprints[${i}]`, v]));
  for (const [field, v] of fields) if (typeof v === 'string' && addresses.has(v)) return { field, address: v };
  return undefined;
}
