/**
 * The one writer of OPWM1's frame bytes (`opwm1.ts` describes the format): the stream's serializer, the hashing
 * thread's stage and the reader threads' slots all write a frame header here, in place. No checks and no imports
 * on purpose: callers check the lengths fit a uint32 first (`checkFrame` in `opwm1.ts`), and the reader threads'
 * worker bundles this file alone.
 */

/** Bytes of a frame besides its path and content: the two uint32 lengths. */
export const FRAME_LENGTHS_BYTES = 8;

/** `value` as a uint32, little-endian, at `off`. */
export function writeU32LE(buf: Uint8Array, off: number, value: number): void {
  buf[off] = value & 0xff;
  buf[off + 1] = (value >>> 8) & 0xff;
  buf[off + 2] = (value >>> 16) & 0xff;
  buf[off + 3] = (value >>> 24) & 0xff;
}

/** The two lengths of the frame at `at`, whose `pathLength` path bytes are already in place at `at + 4`. */
export function writeFrameLengths(buf: Uint8Array, at: number, pathLength: number, contentLength: number): void {
  writeU32LE(buf, at, pathLength);
  writeU32LE(buf, at + 4 + pathLength, contentLength);
}

/** One file's frame header at `at` (path length, path bytes, content length); returns its length. */
export function writeFrameHeader(buf: Uint8Array, at: number, pathBytes: Uint8Array, contentLength: number): number {
  buf.set(pathBytes, at + 4);
  writeFrameLengths(buf, at, pathBytes.length, contentLength);
  return FRAME_LENGTHS_BYTES + pathBytes.length;
}
