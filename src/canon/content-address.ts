import { createHash } from 'node:crypto';

/** `sha256:` and 64 lowercase hex digits: the only address form the reference emits or accepts. */
export type ContentAddress = `sha256:${string}`;

/** The receipt verifier's exact pattern (reference `CONTENT_ADDRESS_PATTERN`). */
export const CONTENT_ADDRESS_RE = /^sha256:[a-f0-9]{64}$/;

/** The address of the empty artifact (OPWM1 bytes `4f50574d3100000000`): the cold-start `@atomic`. */
export const EMPTY_ARTIFACT_ADDRESS: ContentAddress =
  'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6';

export function isContentAddress(value: unknown): value is ContentAddress {
  return typeof value === 'string' && CONTENT_ADDRESS_RE.test(value);
}

/** The content address of some bytes (OPWM1 for an artifact, canonical JSON for a receipt). */
export function contentAddressOf(bytes: Uint8Array | string): ContentAddress {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** `sha256:<hex>` from a finished hash's hex digest. */
export function addressFromHex(hex: string): ContentAddress {
  return `sha256:${hex}`;
}
