import { ProseError } from '../core/errors.ts';
import { canonicalEntries, type ArtifactEntry, type ArtifactInput } from './artifact-files.ts';
import { contentAddressOf, type ContentAddress } from './content-address.ts';
import { writeFrameHeader, writeU32LE } from './opwm1-frame.ts';

/**
 * OPWM1, the reference artifact format: ASCII `OPWM1`, uint32 LE file count, then per file (in UTF-8 path byte
 * order) uint32 LE path length, path bytes, uint32 LE content length, content bytes. Nothing else: no
 * directories, modes, times or trailing data.
 */
export const OPWM1_MAGIC = Uint8Array.from([0x4f, 0x50, 0x57, 0x4d, 0x31]);
export const UINT32_MAX = 0xffff_ffff;

/** The 9-byte stream header: magic and file count. */
export function opwm1Header(fileCount: number): Uint8Array {
  const out = new Uint8Array(9);
  out.set(OPWM1_MAGIC, 0);
  writeU32LE(out, 5, checkU32(fileCount, 'fileCount'));
  return out;
}

/** The frame before one file's content: path length, path bytes, content length. */
export function opwm1FileHeader(pathBytes: Uint8Array, contentLength: number, field = 'file'): Uint8Array {
  checkFrame(pathBytes.length, contentLength, field);
  const out = new Uint8Array(8 + pathBytes.length);
  writeFrameHeader(out, 0, pathBytes, contentLength);
  return out;
}

/** Raises E_FORMAT (at `field`) when a frame's lengths do not fit OPWM1's uint32. */
export function checkFrame(pathLength: number, contentLength: number, field = 'file'): void {
  checkU32(pathLength, `${field}.pathLength`);
  checkU32(contentLength, `${field}.contentLength`);
}

/** The OPWM1 bytes of an artifact held in memory. One allocation, no intermediate chunks. */
export function serializeArtifact(files: ArtifactInput): Uint8Array {
  return serializeEntries(canonicalEntries(files));
}

export function serializeEntries(entries: readonly ArtifactEntry[]): Uint8Array {
  let total = 9;
  for (const e of entries) total += 8 + e.pathBytes.length + e.content.length;
  const out = new Uint8Array(total);
  out.set(opwm1Header(entries.length), 0);
  let off = 9;
  entries.forEach((e, i) => {
    checkFrame(e.pathBytes.length, e.content.length, `files[${i}]`);
    off += writeFrameHeader(out, off, e.pathBytes, e.content.length);
    out.set(e.content, off);
    off += e.content.length;
  });
  return out;
}

export interface Commit {
  address: ContentAddress;
  bytes: Uint8Array;
  files: number;
}

/** What a backend calls to commit a world-model version: the OPWM1 bytes to store and their address. */
export function commit(files: ArtifactInput): Commit {
  const entries = canonicalEntries(files);
  const bytes = serializeEntries(entries);
  return { address: contentAddressOf(bytes), bytes, files: entries.length };
}

/** The address of an artifact without keeping its bytes. */
export function artifactAddress(files: ArtifactInput): ContentAddress {
  return contentAddressOf(serializeArtifact(files));
}

function checkU32(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
    throw new ProseError('E_FORMAT', `${field} ${value} does not fit OPWM1's uint32`, {
      location: { field },
      hint: 'OPWM1 holds at most 4 GiB - 1 per file and 2^32 - 1 files',
    });
  }
  return value;
}
