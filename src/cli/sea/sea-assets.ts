import * as sea from 'node:sea';

/**
 * The assets scripts/build-binary.mjs embeds. Read through `node:sea` only inside the binary; from a checkout
 * (tsx) `isSea()` is false and every reader answers undefined.
 */
export const SEA_ASSET = { sqliteWasm: 'sqlite3.wasm', suite: 'suite.json' } as const;

export function inSea(): boolean {
  try {
    return sea.isSea();
  } catch {
    return false;
  }
}

/** A private copy of the asset's bytes (getAsset copies, so the buffer can be handed to WebAssembly safely). */
export function seaAssetBytes(key: string): Uint8Array | undefined {
  return inSea() ? new Uint8Array(sea.getAsset(key)) : undefined;
}

export function seaAssetText(key: string): string | undefined {
  return inSea() ? sea.getAsset(key, 'utf8') : undefined;
}
