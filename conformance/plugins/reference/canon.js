// The canonical bytes of the world-model and receipts (README "Canonical store"): canonical JSON, sha256
// addresses, artifact paths and OPWM1. The same history must give the same addresses in every backend.
import { createHash } from 'node:crypto';
import { fail } from './errors.js';

export const EMPTY_ARTIFACT_ADDRESS = 'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6';
export const ADDRESS_RE = /^sha256:[a-f0-9]{64}$/;
const MAGIC = Buffer.from('OPWM1', 'ascii');

export const addressOf = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

// Keys sorted by UTF-16 code units (JS .sort()), no white space, values as JSON.stringify prints them.
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) fail('E_FORMAT', `canonical JSON cannot hold ${value}`);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint')
      fail('E_FORMAT', `canonical JSON cannot hold a ${typeof value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

// `\` becomes `/`, empty and `.` segments go, `..` and empty paths are refused; bytes are otherwise kept as given.
export function normalizePath(raw, field) {
  if (typeof raw !== 'string' || raw.length === 0)
    fail('E_INVALID_ARGUMENT', 'an artifact path must be a non-empty string', field);
  // NUL ends a path on every file system: such a file could be hashed but never laid out.
  if (raw.includes('\0')) fail('E_INVALID_ARGUMENT', `artifact path ${JSON.stringify(raw)} holds NUL`, field);
  if (!raw.isWellFormed())
    fail('E_INVALID_ARGUMENT', `artifact path ${JSON.stringify(raw)} holds a lone UTF-16 surrogate`, field);
  const segments = [];
  for (const s of raw.replace(/\\/g, '/').split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..')
      fail('E_INVALID_ARGUMENT', `artifact path ${JSON.stringify(raw)} escapes the root with ".."`, field);
    segments.push(s);
  }
  if (segments.length === 0)
    fail('E_INVALID_ARGUMENT', `artifact path ${JSON.stringify(raw)} normalizes to nothing`, field);
  return segments.join('/');
}

/**
 * The files of an operation as canonical entries (normalized path, UTF-8 bytes), in UTF-8 path byte order.
 * Refused: two raw paths for one file, a file named `.version` (the published pointer), and a file that is also
 * the directory of another, which a directory cannot hold.
 */
export function artifactEntries(files, field = 'files') {
  const byPath = new Map();
  for (const [raw, content] of Object.entries(files)) {
    const f = `${field}[${JSON.stringify(raw)}]`;
    const path = normalizePath(raw, f);
    if (byPath.has(path)) fail('E_INVALID_ARGUMENT', `two artifact paths normalize to ${JSON.stringify(path)}`, f);
    if (typeof content !== 'string') fail('E_INVALID_ARGUMENT', `${f} must be a string`, f);
    byPath.set(path, { path, pathBytes: Buffer.from(path, 'utf8'), content: Buffer.from(content, 'utf8') });
  }
  const entries = [...byPath.values()].sort((a, b) => Buffer.compare(a.pathBytes, b.pathBytes));
  for (const e of entries) {
    if (e.path === '.version')
      fail('E_INVALID_ARGUMENT', 'a world-model file may not be named .version', `${field}[".version"]`);
    const segs = e.path.split('/');
    for (let i = 1; i < segs.length; i++) {
      const dir = segs.slice(0, i).join('/');
      if (byPath.has(dir))
        fail(
          'E_INVALID_ARGUMENT',
          `${JSON.stringify(dir)} is both a file and the directory of ${JSON.stringify(e.path)}`,
          `${field}[${JSON.stringify(dir)}]`,
        );
    }
  }
  return entries;
}

const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** OPWM1: "OPWM1", file count, then per file path length, path, content length, content (uint32 LE). */
export function opwm1(entries) {
  const parts = [MAGIC, u32(entries.length)];
  for (const e of entries) parts.push(u32(e.pathBytes.length), e.pathBytes, u32(e.content.length), e.content);
  return Buffer.concat(parts);
}

/** OPWM1 bytes back to text files; anything malformed is E_CORRUPT (we wrote these bytes ourselves). */
export function filesOf(bytes, where) {
  const bad = (why) => fail('E_CORRUPT', `stored version ${where} is not OPWM1: ${why}`);
  if (!bytes.subarray(0, 5).equals(MAGIC)) bad('bad magic');
  let off = 5;
  const read = (len) => {
    if (off + len > bytes.length) bad('truncated');
    const out = bytes.subarray(off, off + len);
    off += len;
    return out;
  };
  const count = read(4).readUInt32LE();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const files = {};
  for (let i = 0; i < count; i++) {
    const path = read(read(4).readUInt32LE()).toString('utf8');
    const content = read(read(4).readUInt32LE());
    try {
      files[path] = decoder.decode(content);
    } catch {
      fail('E_CORRUPT', `file ${JSON.stringify(path)} of ${where} is not UTF-8 text`);
    }
  }
  if (off !== bytes.length) bad('trailing bytes');
  return files;
}

const FACET_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * A faceted node's facet tokens (decision facet-token-bytes): per declared facet, the address of the OPWM1 of the
 * files under `published/<facet>/`, paths relative to it. A file under `published/` in no declared facet is refused.
 */
export function facetTokens(entries, facets) {
  const byFacet = new Map();
  facets.forEach((f, i) => {
    if (typeof f !== 'string' || !FACET_RE.test(f) || f === '..')
      fail('E_INVALID_ARGUMENT', `facet ${JSON.stringify(f)} is not a directory name`, `facets[${i}]`);
    if (byFacet.has(f)) fail('E_INVALID_ARGUMENT', `facet ${f} is declared twice`, `facets[${i}]`);
    byFacet.set(f, []);
  });
  for (const e of entries) {
    if (!e.path.startsWith('published/')) continue;
    const [facet, ...rest] = e.path.slice('published/'.length).split('/');
    const list = rest.length > 0 ? byFacet.get(facet) : undefined;
    if (!list)
      fail(
        'E_INVALID_ARGUMENT',
        `${e.path} is under published/ but in no declared facet`,
        `files[${JSON.stringify(e.path)}]`,
      );
    const path = rest.join('/');
    list.push({ path, pathBytes: Buffer.from(path, 'utf8'), content: e.content });
  }
  return Object.fromEntries([...byFacet].map(([f, list]) => [f, addressOf(opwm1(list))]));
}
