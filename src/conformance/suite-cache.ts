import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Suite } from './case-types.ts';
import { loadSuite, suiteFiles } from './load-suite.ts';

/**
 * Where parsed suites are kept. Composing the YAML is most of a short `test` run's start (27 files: ~400 ms warm,
 * over a second cold under load, most of a run under qemu), and every test process and in-process spec paid it
 * again; reading back a v8-serialized Suite takes a few ms. v8, not JSON: JSON turns a case's `-0` into `0`.
 */
export interface SuiteCache {
  /** The folder of snapshots, made when missing. */
  dir: string;
  /** A hash of the code that turns YAML into a Suite: a changed loader must never be served an old parse. */
  codeKey: string;
  /** Only suites in this folder are kept, so a spec's temporary suites do not pile up. */
  within: string;
}

/** Where a loaded suite came from: `cache`, or `parse` with why the cache was not used. */
export type SuiteSource = { from: 'cache' } | { from: 'parse'; why: string };

const FORMAT = 'prose-state parsed suite 1';
/** Snapshots kept per cache folder (one per reader: code, Node, working directory, suite folder); the oldest go first. */
const KEEP = 8;

/**
 * `loadSuite(dir)`, served from `cache` when a snapshot's key matches: the bytes of every file the loader reads, the
 * loader's code, Node and V8, the working directory (case positions are relative to it) and `dir` as given. A miss,
 * an unreadable, truncated or altered snapshot, or a cache folder that cannot be written falls back to parsing, and
 * a suite with an error is never stored: its error is thrown by the parse, as without a cache.
 */
export function loadSuiteCached(dir: string, cache: SuiteCache | undefined): { suite: Suite; source: SuiteSource } {
  const parse = (why: string) => ({ suite: loadSuite(dir), source: { from: 'parse', why } as SuiteSource });
  if (!cache || !cache.codeKey) return parse('no cache');
  const within = relative(resolve(cache.within), resolve(dir));
  if (within === '..' || within.startsWith(`..${sep}`) || isAbsolute(within)) return parse('outside');
  // The slot is everything but the suite's bytes: a binary and its emulated twin, or two checkouts' codes, keep
  // apart snapshots of one suite, and an edited suite takes its old snapshot's place.
  const { node, v8 } = process.versions;
  const reader = [FORMAT, cache.codeKey, node, v8, process.arch, process.cwd(), dir].join('\0');
  const slot = join(cache.dir, `${digest(reader).slice(0, 24)}.v8`);
  let key: string;
  try {
    key = suiteKey(dir, reader);
  } catch {
    return parse('unreadable suite'); // the parse names the file
  }
  const kept = readSnapshot(slot, key, dir);
  if (typeof kept !== 'string') return { suite: kept, source: { from: 'cache' } };
  const parsed = parse(kept);
  writeSnapshot(cache.dir, slot, key, parsed.suite);
  return parsed;
}

function digest(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The snapshot's key: who reads it (`reader`: the code, Node, V8, the cwd, `dir`) and every file the loader reads. */
function suiteKey(dir: string, reader: string): string {
  const hash = createHash('sha256');
  hash.update(reader);
  for (const file of suiteFiles(dir)) {
    const bytes = readFileSync(file);
    hash.update(`\0${relative(dir, file)}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** The snapshot's Suite, or why it cannot be used. The header holds the key and the payload's length and hash. */
function readSnapshot(slot: string, key: string, dir: string): Suite | string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(slot);
  } catch {
    return 'miss';
  }
  const end = bytes.indexOf(10);
  if (end < 0 || end > 512) return 'corrupt';
  const [format, k, length, sum] = bytes.subarray(0, end).toString('latin1').split('\t');
  if (format !== FORMAT || k !== key) return 'stale';
  const payload = bytes.subarray(end + 1);
  if (String(payload.length) !== length || digest(payload) !== sum) return 'corrupt';
  try {
    const suite = deserialize(payload) as Suite;
    return suite && suite.dir === dir && Array.isArray(suite.cases) ? suite : 'corrupt';
  } catch {
    return 'corrupt';
  }
}

/** Temp file and rename: a reader racing the writer sees the old snapshot or the new one, never half of one. */
function writeSnapshot(dir: string, slot: string, key: string, suite: Suite): void {
  const tmp = `${slot}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  let wrote = false;
  try {
    const payload = serialize(suite);
    const header = Buffer.from(`${[FORMAT, key, payload.length, digest(payload)].join('\t')}\n`, 'latin1');
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, Buffer.concat([header, payload]));
    wrote = true;
    renameSync(tmp, slot);
    wrote = false;
    prune(dir);
  } catch {
    if (wrote) rmSync(tmp, { force: true }); // a cache that cannot be written is only slower
  }
}

/** Keeps the KEEP newest snapshots, and drops temp files a killed writer left more than a minute ago. */
function prune(dir: string): void {
  const now = Date.now();
  const entries = readdirSync(dir).flatMap((name) => {
    const at = statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs; // another process may prune beside us
    return at === undefined ? [] : [{ path: join(dir, name), name, at }];
  });
  const leftovers = entries.filter((e) => e.name.endsWith('.tmp') && now - e.at > 60_000);
  const old = entries
    .filter((e) => e.name.endsWith('.v8'))
    .sort((a, b) => b.at - a.at)
    .slice(KEEP);
  for (const e of [...leftovers, ...old]) rmSync(e.path, { force: true });
}
