import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactAddress, canonicalJson, normalizeArtifactPath } from '../../src/canon/index.ts';
import { fingerprintDirectory } from '../../src/fingerprint/index.ts';
import type { LayoutStep, Step } from '../../src/conformance/case-types.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { interpolate } from '../../src/conformance/template.ts';

/**
 * The golden addresses and canonical-JSON texts of the deterministic-fingerprints cases, recomputed by a second
 * implementation in another language (spec/canon/fixtures/independent_canon.py, written from docs/canon.md) and
 * by src/canon/: all three must agree, so no literal in the suite rests on our code alone.
 */
const SCRIPT = join(import.meta.dirname, 'fixtures/independent_canon.py');
const suite = builtinSuite();
const cases = suite.cases.filter((c) => c.area === 'deterministic-fingerprints');

interface ArtifactVector {
  where: string;
  files: Record<string, string>;
  version: string;
}
interface JsonVector {
  where: string;
  value: unknown;
  text: string;
}

const artifacts: ArtifactVector[] = [];
const texts: JsonVector[] = [];
for (const c of cases) {
  let intent: unknown;
  c.steps.forEach((step: Step, i) => {
    const where = `${c.id} step ${i + 1} (${step.pos.file}:${step.pos.line})`;
    if (step.kind === 'op' && step.error === undefined) {
      const args = interpolate(step.args, {}) as Record<string, unknown>;
      const version = (step.expect as { version?: unknown } | undefined)?.version;
      if (step.op === 'commitWorldModel' && typeof version === 'string')
        artifacts.push({ where, files: args.files as Record<string, string>, version });
      if (step.op === 'writeEnvelope') intent = args.compiledIntent;
    }
    if (step.kind === 'layout' && intent !== undefined) {
      const text = storedIntent(step);
      if (text !== undefined) texts.push({ where, value: intent, text });
    }
  });
}

/** The canonical JSON a layout step expects for the compiled intent written before it (the file drops its LF). */
function storedIntent(step: LayoutStep): string | undefined {
  if (step.storage === 'directory' && step.file?.endsWith('/compiled-intent.json') && typeof step.equals === 'string') {
    assert.ok(step.equals.endsWith('\n'), 'compiled-intent.json ends in one LF (wm-envelope)');
    return step.equals.slice(0, -1);
  }
  const rows =
    step.storage === 'postgres' && /x_run_envelope/.test(step.query ?? '')
      ? (step.rows as { compiled_intent?: unknown }[])
      : undefined;
  return typeof rows?.[0]?.compiled_intent === 'string' ? rows[0].compiled_intent : undefined;
}

/** JSON text alone cannot carry -0, so every number travels as its IEEE-754 bits. */
function tagNumbers(v: unknown): unknown {
  if (typeof v === 'number') {
    const b = Buffer.alloc(8);
    b.writeDoubleBE(v);
    return { '\u0000f64': b.toString('hex') };
  }
  if (Array.isArray(v)) return v.map(tagNumbers);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tagNumbers(x)]));
  return v;
}

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const skipReason = python.error
  ? `python3 is not on PATH (${(python.error as NodeJS.ErrnoException).code}): the independent check cannot run here`
  : undefined;

test('the case file holds enough literals to check: every commit with a golden address and both canonical-JSON texts', () => {
  assert.ok(artifacts.length >= 25, `found ${artifacts.length} commit steps with a literal version`);
  assert.ok(texts.length >= 4, `found ${texts.length} compiled-intent texts`);
});

test('src/canon gives every literal address and canonical-JSON text of deterministic-fingerprints', () => {
  for (const a of artifacts) assert.is(artifactAddress(a.files), a.version, a.where);
  for (const t of texts) assert.is(canonicalJson(t.value), t.text, t.where);
});

// The walk is where a per-directory order or a skipped dotfile would hide: laid out as a tree, each artifact must
// fingerprint to the same literal (the stamp .version is never among the files: the cases refuse it).
test('each artifact laid out as a directory fingerprints to its literal address', () => {
  for (const a of artifacts) {
    const dir = mkdtempSync(join(tmpdir(), 'independent-check-'));
    try {
      for (const [raw, content] of Object.entries(a.files)) {
        const file = join(dir, ...normalizeArtifactPath(raw).split('/'));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
      assert.is(fingerprintDirectory(dir).address, a.version, a.where);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('the independent Python writer gives every literal address and canonical-JSON text', () => {
  if (skipReason) {
    console.log(`  skipped: ${skipReason}`);
    return;
  }
  const request = {
    artifacts: artifacts.map((a) => Object.entries(a.files)),
    json: texts.map((t) => tagNumbers(t.value)),
  };
  const run = spawnSync('python3', [SCRIPT], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.is(run.status, 0, `independent_canon.py failed: ${run.stderr}`);
  const answer = JSON.parse(run.stdout) as { artifacts: string[]; json: string[] };
  assert.is(answer.artifacts.length, artifacts.length);
  artifacts.forEach((a, i) => assert.is(answer.artifacts[i], a.version, a.where));
  texts.forEach((t, i) => assert.is(answer.json[i], t.text, t.where));
});

test.run();
