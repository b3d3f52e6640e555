// The world-model, receipt and envelope operations. Their storage IS the seed layout under .prose/runs/{id}/:
// world-model/{node}/ (published files and .version), state/world-model/{node}/versions/sha256_<hex>.bin (OPWM1),
// receipts/{node}.jsonl (canonical JSON, one per line), workspace/{node}/, compiled-intent.json, root.prose.md,
// sources/. Version bytes are written before .version names them, and a receipt is appended last.
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADDRESS_RE,
  EMPTY_ARTIFACT_ADDRESS,
  addressOf,
  artifactEntries,
  canonicalJson,
  facetTokens,
  filesOf,
  normalizePath,
  opwm1,
} from './canon.js';
import { checkName } from './checks.js';
import { fail } from './errors.js';
import { writeAtomic } from './seed-layout.js';

const ATOMIC = '@atomic';
const COLD_START = { [ATOMIC]: EMPTY_ARTIFACT_ADDRESS };
const WAKE_SOURCES = ['input', 'self', 'external'];

const readOrUndefined = (file) => {
  try {
    return readFileSync(file);
  } catch (err) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
};

function listFiles(dir, prefix = '') {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) =>
      lstatSync(join(dir, name)).isDirectory() ? listFiles(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`],
    );
}

/** Makes `dir` hold exactly these files (a `.version` pointer kept when asked). */
function materialize(dir, files, keepVersion) {
  for (const rel of listFiles(dir))
    if (!(keepVersion && rel === '.version') && !(rel in files)) rmSync(join(dir, ...rel.split('/')));
  for (const [path, text] of Object.entries(files)) writeAtomic(join(dir, ...path.split('/')), text);
}

// Every field of the reference receipt envelope; content_hash = sha256 of the canonical envelope without it.
function receipt(body) {
  const payload = {
    schema: 'openprose.receipt',
    hash_algorithm: 'sha256',
    ...body,
    sig: { scheme: 'none', null_reason: 'no-signer-adapter-configured' },
  };
  return { ...payload, content_hash: addressOf(canonicalJson(payload)) };
}

function renderContext(a) {
  const wake = a.wake ?? { source: 'external', refs: [] };
  if (!WAKE_SOURCES.includes(wake.source) || !Array.isArray(wake.refs))
    fail('E_INVALID_ARGUMENT', 'wake must be {source: input|self|external, refs: [...]}', 'wake');
  const extra = Object.keys(wake).find((k) => k !== 'source' && k !== 'refs');
  if (extra) fail('E_INVALID_ARGUMENT', `wake has no key ${JSON.stringify(extra)}`, `wake.${extra}`);
  wake.refs.forEach(
    (r, i) =>
      ADDRESS_RE.test(r) || fail('E_INVALID_ARGUMENT', `wake.refs[${i}] is not a content address`, `wake.refs[${i}]`),
  );
  const inputs = a.inputFingerprints ?? [];
  inputs.forEach(
    (t, i) =>
      t.length > 0 ||
      fail('E_INVALID_ARGUMENT', 'an input fingerprint is a non-empty string', `inputFingerprints[${i}]`),
  );
  if (a.contract === '') fail('E_INVALID_ARGUMENT', 'contract must be non-empty', 'contract');
  const tokens = a.tokens ?? { fresh: 0, reused: 0 };
  for (const k of ['fresh', 'reused'])
    if (!Number.isSafeInteger(tokens[k]) || tokens[k] < 0)
      fail('E_INVALID_ARGUMENT', `tokens.${k} must be a non-negative integer`, `tokens.${k}`);
  if (Object.keys(tokens).length !== 2) fail('E_INVALID_ARGUMENT', 'tokens is exactly {fresh, reused}', 'tokens');
  return {
    head: {
      node: a.node,
      contract_fingerprint: a.contract,
      wake: { source: wake.source, refs: [...wake.refs] },
      input_fingerprints: [...inputs],
    },
    // Provider and model are checked only when a rendered receipt records them (skipped and failed cost nothing).
    cost: () => {
      for (const k of ['provider', 'model']) if (a[k] === '') fail('E_INVALID_ARGUMENT', `${k} must be non-empty`, k);
      return {
        provider: a.provider ?? 'none',
        model: a.model ?? 'none',
        tokens: { fresh: tokens.fresh, reused: tokens.reused },
        surprise_cause: wake.source,
      };
    },
    zeroCost: { provider: 'none', model: 'none', tokens: { fresh: 0, reused: 0 }, surprise_cause: wake.source },
  };
}

export function worldModelHandlers(layout, runOf) {
  const dir = (run, ...parts) => join(layout.runDir(run), ...parts);
  const versionFile = (run, node, address) =>
    dir(run, 'state', 'world-model', node, 'versions', `${address.replace(':', '_')}.bin`);
  const nodeName = (node) => {
    checkName('node', node, 'node');
    if (node === 'caller')
      fail('E_INVALID_NAME', 'node name "caller" is reserved', 'node', 'world-model/caller/ holds the caller inputs');
    return node;
  };
  const receiptsOf = (run, node) => {
    // All nodes: in UTF-8 byte order of the node names, each chain in append order.
    const nodes =
      node !== undefined
        ? [node]
        : listFiles(dir(run, 'receipts'))
            .filter((f) => f.endsWith('.jsonl'))
            .map((f) => f.slice(0, -6))
            .sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    return nodes.flatMap((n) => {
      const text = readOrUndefined(dir(run, 'receipts', `${n}.jsonl`))?.toString('utf8') ?? '';
      if (text && !text.endsWith('\n')) fail('E_CORRUPT', `receipts/${n}.jsonl does not end with a newline`);
      return text
        ? text
            .slice(0, -1)
            .split('\n')
            .map((line, i) => parseLine(line, `receipts/${n}.jsonl line ${i + 1}`))
        : [];
    });
  };
  const lastOf = (run, node) => {
    const last = receiptsOf(run, node).at(-1);
    return { prev: last?.content_hash ?? null, fingerprints: last ? last.fingerprints : { ...COLD_START } };
  };
  const append = (run, node, r) => {
    const file = dir(run, 'receipts', `${node}.jsonl`);
    writeAtomic(file, `${readOrUndefined(file)?.toString('utf8') ?? ''}${canonicalJson(r)}\n`);
  };
  const published = (run, node) =>
    readOrUndefined(dir(run, 'world-model', node, '.version'))
      ?.toString('utf8')
      .trim() ?? null;
  const versionFiles = (run, node, version, isPublished) => {
    const bytes = readOrUndefined(versionFile(run, node, version));
    if (!bytes)
      return isPublished
        ? fail('E_CORRUPT', `node ${node} publishes ${version}, which is not stored`, 'node')
        : fail('E_NOT_FOUND', `node ${node} has no version ${version}`, 'version');
    if (addressOf(bytes) !== version)
      fail('E_CORRUPT', `stored version ${node}@${version} does not hash to its address`);
    return filesOf(bytes, `${node}@${version}`);
  };
  const filesOfEntries = (entries) => Object.fromEntries(entries.map((e) => [e.path, e.content.toString('utf8')]));

  return {
    commitWorldModel(a) {
      const node = nodeName(a.node);
      const entries = artifactEntries(a.files);
      runOf(a.run);
      const facets = a.facets === undefined ? {} : facetTokens(entries, a.facets);
      const bytes = opwm1(entries);
      const address = addressOf(bytes);
      const { prev, fingerprints: before } = lastOf(a.run, node);
      const ctx = renderContext({ ...a, node });
      const after = { [ATOMIC]: address, ...facets };
      if (canonicalJson(before) === canonicalJson(after)) {
        const r = receipt({
          ...ctx.head,
          fingerprints: { ...before },
          semantic_diff: {},
          prev,
          status: 'skipped',
          cost: ctx.zeroCost,
        });
        append(a.run, node, r);
        return {
          status: 'skipped',
          version: published(a.run, node),
          contentHash: r.content_hash,
          prev,
          fingerprints: { ...before },
        };
      }
      const moved = Object.keys(after).filter((k) => before[k] !== after[k]);
      const r = receipt({
        ...ctx.head,
        fingerprints: after,
        semantic_diff: Object.fromEntries(moved.map((k) => [k, { from: before[k] ?? null, to: after[k] }])),
        prev,
        status: 'rendered',
        cost: ctx.cost(),
      });
      if (!existsSync(versionFile(a.run, node, address))) writeAtomic(versionFile(a.run, node, address), bytes);
      materialize(dir(a.run, 'world-model', node), filesOfEntries(entries), true);
      writeAtomic(dir(a.run, 'world-model', node, '.version'), `${address}\n`);
      append(a.run, node, r);
      return { status: 'rendered', version: address, contentHash: r.content_hash, prev, fingerprints: after };
    },
    failRender(a) {
      const node = nodeName(a.node);
      runOf(a.run);
      const { prev, fingerprints } = lastOf(a.run, node);
      const ctx = renderContext({ ...a, node });
      if (a.reason.length === 0) fail('E_INVALID_ARGUMENT', 'reason must be non-empty', 'reason');
      const r = receipt({
        ...ctx.head,
        fingerprints: { ...fingerprints },
        semantic_diff: { failure_reason: a.reason },
        prev,
        status: 'failed',
        cost: ctx.zeroCost,
      });
      append(a.run, node, r);
      return { status: 'failed', contentHash: r.content_hash, prev };
    },
    readPublished(a) {
      const node = nodeName(a.node);
      runOf(a.run);
      const version = published(a.run, node);
      if (version === null) return { version: null, fingerprints: { ...COLD_START }, files: {} };
      // A faceted node's tokens are in its receipts only.
      const { fingerprints: last } = lastOf(a.run, node);
      const fingerprints = last[ATOMIC] === version ? { ...last } : { [ATOMIC]: version };
      return { version, fingerprints, files: versionFiles(a.run, node, version, true) };
    },
    readVersion(a) {
      const node = nodeName(a.node);
      if (!ADDRESS_RE.test(a.version))
        fail('E_INVALID_ARGUMENT', `version ${JSON.stringify(a.version)} is not a content address`, 'version');
      runOf(a.run);
      return { files: versionFiles(a.run, node, a.version, false) };
    },
    listReceipts(a) {
      const node = a.node === undefined ? undefined : nodeName(a.node);
      runOf(a.run);
      return { receipts: receiptsOf(a.run, node) };
    },
    writeWorkspace(a) {
      const node = nodeName(a.node);
      const entries = artifactEntries(a.files);
      runOf(a.run);
      materialize(dir(a.run, 'workspace', node), filesOfEntries(entries), false);
      return {};
    },
    writeEnvelope(a) {
      let intent;
      try {
        intent = canonicalJson(a.compiledIntent);
      } catch (err) {
        fail('E_INVALID_ARGUMENT', `compiledIntent has no canonical JSON: ${err.message}`, 'compiledIntent');
      }
      const sources = {};
      for (const [raw, text] of Object.entries(a.sources ?? {})) {
        const field = `sources[${JSON.stringify(raw)}]`;
        if (normalizePath(raw, field) !== raw)
          fail(
            'E_INVALID_ARGUMENT',
            `source path ${JSON.stringify(raw)} must be written as ${JSON.stringify(normalizePath(raw, field))}`,
            field,
          );
        if (typeof text !== 'string') fail('E_INVALID_ARGUMENT', `${field} must be a string`, field);
        sources[raw] = text;
      }
      artifactEntries(sources, 'sources');
      runOf(a.run);
      const envelope = { compiledIntent: intent, rootSource: a.rootSource, sources: sorted(sources) };
      const existing = readEnvelope(a.run);
      if (existing) {
        if (canonicalJson(existing) === canonicalJson(envelope)) return {};
        fail(
          'E_CONFLICT',
          'the run envelope is already written and differs',
          'run',
          'compiled-intent.json, root.prose.md and sources/ are immutable during a run',
        );
      }
      for (const [path, text] of Object.entries(sources)) writeAtomic(dir(a.run, 'sources', ...path.split('/')), text);
      writeAtomic(dir(a.run, 'root.prose.md'), a.rootSource);
      // Written last: its presence says the envelope is complete.
      writeAtomic(dir(a.run, 'compiled-intent.json'), `${intent}\n`);
      return {};
    },
    readEnvelope(a) {
      runOf(a.run);
      const env = readEnvelope(a.run) ?? fail('E_NOT_FOUND', `run ${a.run} has no envelope yet`, 'run');
      return { compiledIntent: JSON.parse(env.compiledIntent), rootSource: env.rootSource, sources: env.sources };
    },
  };

  function readEnvelope(run) {
    const intent = readOrUndefined(dir(run, 'compiled-intent.json'));
    if (!intent) return undefined;
    const sources = Object.fromEntries(
      listFiles(dir(run, 'sources')).map((rel) => [rel, readFileSync(dir(run, 'sources', ...rel.split('/')), 'utf8')]),
    );
    return {
      compiledIntent: intent.toString('utf8').replace(/\n$/, ''),
      rootSource: readFileSync(dir(run, 'root.prose.md'), 'utf8'),
      sources: sorted(sources),
    };
  }
}

function parseLine(line, where) {
  try {
    return JSON.parse(line);
  } catch {
    return fail('E_CORRUPT', `${where} is not JSON`);
  }
}

function sorted(record) {
  return Object.fromEntries(Object.entries(record).sort(([x], [y]) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
}
