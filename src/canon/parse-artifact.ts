import { ProseError } from '../core/errors.ts';
import { normalizeArtifactPath } from './artifact-path.ts';
import type { ArtifactEntry } from './artifact-files.ts';
import { OPWM1_MAGIC } from './opwm1.ts';

export interface ParseOptions {
  /**
   * true (default): the bytes must be canonical (every path already normalized, strictly ascending by UTF-8
   * bytes), so re-serializing gives the same bytes and address. false: accept what the reference's
   * `deserializeArtifact` accepts (any order, paths normalized after reading, collisions refused).
   */
  canonical?: boolean;
}

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses OPWM1 bytes strictly. Errors are E_FORMAT with the byte offset and the field (`files[2].content`).
 * Contents are views into `bytes`, not copies.
 */
export function parseArtifact(bytes: Uint8Array, opts: ParseOptions = {}): ArtifactEntry[] {
  const canonical = opts.canonical ?? true;
  const fail = (offset: number, field: string, message: string, hint?: string): never => {
    throw new ProseError('E_FORMAT', `OPWM1: ${message} at byte ${offset}`, {
      location: { field: `${field} @${offset}` },
      hint,
    });
  };
  for (let i = 0; i < OPWM1_MAGIC.length; i++) {
    if (bytes[i] !== OPWM1_MAGIC[i]) fail(0, 'magic', 'bad magic (expected "OPWM1")', 'this is not an OPWM1 artifact');
  }
  let off = OPWM1_MAGIC.length;
  const u32 = (field: string): number => {
    if (off + 4 > bytes.length) fail(off, field, `truncated: ${field} needs 4 bytes, ${bytes.length - off} left`);
    const v = (bytes[off]! | (bytes[off + 1]! << 8) | (bytes[off + 2]! << 16) | (bytes[off + 3]! << 24)) >>> 0;
    off += 4;
    return v;
  };
  const take = (len: number, field: string): Uint8Array => {
    if (off + len > bytes.length)
      fail(off, field, `truncated: ${field} needs ${len} bytes, ${bytes.length - off} left`);
    const out = bytes.subarray(off, off + len);
    off += len;
    return out;
  };
  const count = u32('fileCount');
  const entries: ArtifactEntry[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const f = `files[${i}]`;
    const pathStart = off;
    const pathBytes = take(u32(`${f}.pathLength`), `${f}.path`);
    let raw: string;
    try {
      raw = UTF8_STRICT.decode(pathBytes);
    } catch {
      return fail(pathStart + 4, `${f}.path`, 'path is not valid UTF-8');
    }
    const content = take(u32(`${f}.contentLength`), `${f}.content`);
    const path = normalizeArtifactPath(raw, `${f}.path`);
    if (canonical && path !== raw)
      fail(pathStart, `${f}.path`, `path ${JSON.stringify(raw)} is not normalized (${JSON.stringify(path)})`);
    if (seen.has(path)) fail(pathStart, `${f}.path`, `duplicate path ${JSON.stringify(path)}`);
    const prev = entries[entries.length - 1];
    if (canonical && prev && Buffer.compare(prev.pathBytes, pathBytes) >= 0) {
      fail(
        pathStart,
        `${f}.path`,
        `path ${JSON.stringify(raw)} is out of UTF-8 byte order`,
        'canonical OPWM1 sorts files by UTF-8 path bytes',
      );
    }
    seen.add(path);
    entries.push({ path, pathBytes: canonical ? pathBytes : new TextEncoder().encode(path), content });
  }
  if (off !== bytes.length) fail(off, 'trailing', `${bytes.length - off} trailing bytes after the last file`);
  return entries;
}
