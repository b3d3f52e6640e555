import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../../src/transcript/parse-transcript.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';
import { transcriptEdition } from '../../../src/verify/transcript/transcript-edition.ts';

// A transcript of either edition, clean and tampered: verify tells the edition, says which it judged, and the current
// edition's form rule (edition.v0-marker) fires only where the current edition is judged (decision transcript-edition).
const dir = new URL('../../fixtures/transcripts/editions/', import.meta.url);
const path = (name: string) => fileURLToPath(new URL(name, dir));
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const rules = (findings: { rule: string; line?: number }[]) => findings.map((f) => `${f.line}:${f.rule}`);

test('each fixture reads as its edition, told by its first run line', () => {
  assert.equal(transcriptEdition(parseTranscript(text('v0-clean.txt'))).edition, 'v0');
  assert.equal(transcriptEdition(parseTranscript(text('v0-tampered.txt'))).edition, 'v0');
  assert.equal(transcriptEdition(parseTranscript(text('current-clean.txt'))).edition, 'current');
  assert.equal(transcriptEdition(parseTranscript(text('current-tampered.txt'))).edition, 'current');
});

test('without a run line the dialect decides: compact markers are current, verbose ones v0', () => {
  assert.equal(transcriptEdition(parseTranscript('1→ a ✓\n2→ b ✓\n')).edition, 'current');
  assert.equal(transcriptEdition(parseTranscript('[Position] session "x"\n[Success] done\n')).edition, 'v0');
  // A [Program] line before any announcement is v0's; a ---end before any other run line is the current text's.
  assert.equal(transcriptEdition(parseTranscript('[Program] Program Start (run: r1)\n1→ a ✓\n2→ b ✓\n')).edition, 'v0');
  assert.equal(transcriptEdition(parseTranscript('[Position] session "x"\n---end\n')).edition, 'current');
});

test('the clean fixtures have no findings in their own edition', () => {
  assert.equal(checkTranscript(text('v0-clean.txt'), 'v0-clean.txt'), []);
  assert.equal(checkTranscript(text('current-clean.txt'), 'current-clean.txt'), []);
});

test('tampered v0: the v0 rules catch the frame that exits as another block', () => {
  assert.equal(rules(checkTranscript(text('v0-tampered.txt'))), ['15:frame.block']);
});

test('tampered current: the verbose frame lines are edition.v0-marker warnings naming the compact form', () => {
  const found = checkTranscript(text('current-tampered.txt'));
  assert.equal(rules(found), ['5:edition.v0-marker', '7:edition.v0-marker']);
  assert.ok(found.every((f) => f.severity === 'warning'));
  assert.match(found[0]!.message, /\[Frame\+\].*`#ID name`/);
});

test('the edition judged can be given: v0 judged as current is flagged, current judged as v0 is not', () => {
  const asCurrent = rules(checkTranscript(text('v0-clean.txt'), undefined, 'current'));
  assert.ok(asCurrent.length > 0 && asCurrent.every((r) => r.endsWith(':edition.v0-marker')), asCurrent.join(' '));
  assert.ok(asCurrent.includes('1:edition.v0-marker'), "OpenProse Program Start is v0's announcement");
  assert.equal(checkTranscript(text('current-tampered.txt'), undefined, 'v0'), []);
});

test('verify reports the edition it judged: detected with the deciding line, or given', async () => {
  const cur = await verifyPath(path('current-clean.txt'));
  assert.equal([cur.kind, cur.edition.edition, cur.edition.source], ['transcript', 'current', 'detected']);
  assert.match(cur.edition.evidence, /^line 1: "OpenProse Run \.\.\."/);
  const v0 = await verifyPath(path('v0-tampered.txt'));
  assert.equal([v0.edition.edition, v0.edition.source, rules(v0.findings)], ['v0', 'detected', ['15:frame.block']]);
  const given = await verifyPath(path('v0-clean.txt'), { edition: 'current' });
  assert.equal([given.kind, given.edition.edition, given.edition.source], ['transcript', 'current', 'given']);
  assert.ok(given.findings.some((f) => f.rule === 'edition.v0-marker'));
  const byKind = await verifyPath(path('current-tampered.txt'), { kind: 'transcript' });
  assert.equal([byKind.edition.edition, byKind.findings.length], ['current', 2]);
});

test.run();
