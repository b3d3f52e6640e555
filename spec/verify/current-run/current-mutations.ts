import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_ARTIFACT_ADDRESS } from '../../../src/canon/content-address.ts';
import type { CurrentRunRuleId } from '../../../src/verify/current-run/rules.ts';
import type { CurrentCopy } from './current-copy.ts';

export interface CurrentMutation {
  rule: CurrentRunRuleId;
  what: string;
  apply(c: CurrentCopy): void;
  /** Other rules the same break sets off, by design. */
  also?: CurrentRunRuleId[];
  /** The file the finding of `rule` names, relative to the run (to the root with `root`). */
  file?: string;
  /** Verify the copied `<openprose-root>` instead of the run. */
  root?: boolean;
}

const LOG = 'vm.log.md';
const HEAD = '# run:20260317-143052-a7b3c9 market-watch\nroot: market-watch\n';
const BODY = '\n1→ [input] topic ✓\n2→ scout ✓ rendered\n3→ alerts ∅ skipped\n---end 2026-03-17T14:35:22Z\n';
const SCOUT_ATOMIC = 'sha256:877ab74fc61c4b4e1c1387276a98cdea052054a92175e2f0691d76c30560e792';
const BIN = `${SCOUT_ATOMIC.replace(':', '_')}.bin`;

/** A break of one line of vm.log.md, whose finding names vm.log.md. */
function onLog(
  rule: CurrentRunRuleId,
  what: string,
  from: string | RegExp,
  to: string,
  more: Partial<CurrentMutation> = {},
): CurrentMutation {
  return { rule, what, apply: (c) => c.edit(LOG, from, to), file: LOG, ...more };
}

/** One break per entry, each applied to a fresh copy of the valid current run. */
export const CURRENT_MUTATIONS: CurrentMutation[] = [
  {
    rule: 'run.id',
    what: 'a run directory not named by a run id',
    apply: (c) => c.renameRun('latest'),
    also: ['vmlog.run-id'],
  },
  {
    rule: 'run.envelope',
    what: 'compiled-intent.json that is not JSON',
    apply: (c) => c.write('compiled-intent.json', '{"nodes": ['),
    file: 'compiled-intent.json',
  },
  { rule: 'run.envelope', what: 'no sources/', apply: (c) => c.remove('sources'), file: 'sources' },
  {
    rule: 'run.envelope',
    what: 'a mounted run without compiled-intent.json',
    apply: (c) => c.remove('compiled-intent.json'),
  },
  {
    rule: 'run.envelope-optional',
    what: 'a function run (bindings/) without compiled-intent.json',
    apply: (c) => {
      c.remove('compiled-intent.json');
      c.write('bindings/scout/findings.md', '# Findings\n');
    },
  },
  {
    rule: 'vmlog.file',
    what: 'a line of vm.log.md that is not UTF-8',
    apply: (c) => c.write(LOG, Buffer.concat([Buffer.from(HEAD), Buffer.from([0xff, 0x0a]), Buffer.from(BODY)])),
    file: LOG,
  },
  {
    rule: 'import.name',
    what: 'an import directory without "--"',
    apply: (c) => c.write('imports/summarizer/vm.log.md', '# run:20260317-143052-a7b3c9 x\nroot: x\n'),
    file: 'imports/summarizer',
  },
  {
    rule: 'root.compiled-intent',
    what: 'dist/intent.next.json and dist/manifest.next.json with different bytes (decision compiled-intent-names)',
    apply: (c) => {
      c.write('../../dist/intent.next.json', '{"nodes":["scout"]}\n');
      c.write('../../dist/manifest.next.json', '{"nodes":["scout","alerts"]}\n');
    },
    root: true,
    file: 'dist/manifest.next.json',
  },
  {
    rule: 'vmlog.error-file',
    what: 'an __error.md of a node the complete log never marks ✗ (decision error-file-heading)',
    apply: (c) => c.write('workspace/alerts/__error.md', '# Error: no-results\n\nNo feed.\n'),
    file: 'workspace/alerts/__error.md',
  },
  {
    rule: 'root.run',
    what: 'a file among the runs of a current root',
    apply: (c) => c.write('../notes.md', '# Notes\n'),
    root: true,
    file: 'runs/notes.md',
  },
  onLog('vmlog.torn', 'a last line without its newline', /\n$/, ''),
  onLog('vmlog.header', 'no root: line', 'root: market-watch\n', ''),
  onLog('vmlog.header', 'an empty upstream list', 'root:', 'upstream: []\nroot:'),
  onLog('vmlog.header', 'a heading without the root name', ' market-watch\n', '\n'),
  onLog('vmlog.run-id', 'a heading naming another run', 'a7b3c9', 'b7b3c9'),
  onLog('vmlog.marker', 'a line that is no marker', '---end', 'scout looked fine\n---end'),
  onLog('vmlog.marker', 'an ---end without an ISO timestamp', '2026-03-17T14:35:22Z', 'yesterday', {
    also: ['vmlog.incomplete'],
  }),
  onLog('vmlog.order', 'a step skipped', '3→ alerts', '4→ alerts'),
  onLog('vmlog.order', 'a marker after ---end', /\n$/, '\n4→ [eval] alerts empty ✓\n'),
  onLog('vmlog.incomplete', 'no ---end nor ---error', /---end .*\n/, ''),
  onLog('vmlog.input', 'an input marker naming another input', '[input] topic', '[input] subject'),
  onLog('vmlog.upstream', 'an upstream run no input names', 'root:', 'upstream: [20260306-112233-f4a5b6]\nroot:'),
  onLog('vmlog.rendered', 'a rendered receipt whose marker is a bare ✓', 'scout ✓ rendered', 'scout ✓'),
  onLog('vmlog.receipt', 'an error marker for a node that was skipped', 'alerts ∅ skipped', 'alerts ✗ no-results'),
  {
    rule: 'wm.caller',
    what: 'a caller input from another source',
    apply: (c) => c.edit('world-model/caller/topic.md', 'source: caller', 'source: cli'),
    file: 'world-model/caller/topic.md',
  },
  {
    rule: 'wm.workspace',
    what: 'a receipt naming a workspace/ file',
    apply: (c) =>
      c.editReceipt('scout', 0, (r) => void (r.semantic_diff = { findings: 'see workspace/scout/notes.md' })),
    file: 'receipts/scout.jsonl',
  },
  {
    rule: 'wm.workspace',
    what: '__error.md published',
    apply: (c) => c.write('world-model/alerts/__error.md', '# Error: none\n'),
  },
  {
    rule: 'durable.dir',
    what: 'state/world-models/ (plural)',
    apply: (c) => c.write('../../state/world-models/scout/published.json', '{}'),
  },
  {
    rule: 'durable.receipts',
    what: "a durable ledger without the run's receipt",
    apply: (c) => c.write('../../state/world-model/alerts/receipts.jsonl', ''),
  },
  {
    rule: 'durable.versions',
    what: 'a stored version whose bytes no longer hash to its name',
    apply: (c) => c.write(`../../state/world-model/scout/versions/${BIN}`, 'OPWM1'),
    file: `../../state/world-model/scout/versions/${BIN}`,
  },
  {
    rule: 'durable.versions',
    what: 'a rendered version missing from versions/',
    apply: (c) => c.remove(`../../state/world-model/scout/versions/${BIN}`),
    file: 'receipts/scout.jsonl',
  },
  {
    rule: 'durable.published',
    what: 'a durable published/ edited',
    apply: (c) => c.edit('../../state/world-model/scout/published/findings.md', 'Orbit', 'Orbital'),
  },
  {
    rule: 'wm.receipts-file',
    what: 'a receipts file without its final newline',
    apply: (c) => c.edit('receipts/alerts.jsonl', /\n$/, ''),
    file: 'receipts/alerts.jsonl',
  },
  {
    rule: 'wm.receipts-file',
    what: 'a blank line in a receipts file',
    apply: (c) => c.edit('receipts/alerts.jsonl', /\n$/, '\n\n'),
  },
  {
    rule: 'wm.receipts-canonical',
    what: 'a receipt written with spaces',
    apply: (c) =>
      c.editReceipt('alerts', 0, () => {}, { text: (r) => JSON.stringify(r, null, 1).replaceAll('\n', '') }),
  },
  {
    rule: 'wm.version-format',
    what: '.version without its newline',
    apply: (c) => c.edit('world-model/scout/.version', /\n$/, ''),
    file: 'world-model/scout/.version',
  },
  {
    rule: 'wm.version-hash',
    what: 'a published file edited after the commit',
    apply: (c) => c.edit('world-model/scout/findings.md', 'Orbit', 'Orbital'),
    file: 'world-model/scout',
  },
  {
    rule: 'wm.version-missing',
    what: 'no .version for a rendered node',
    apply: (c) => c.remove('world-model/scout/.version'),
  },
  {
    rule: 'wm.published-match',
    what: 'a skipped node with a published version',
    apply: (c) => c.write('world-model/alerts/.version', `${EMPTY_ARTIFACT_ADDRESS}\n`),
  },
  {
    rule: 'wm.orphan',
    what: 'a published node without receipts',
    apply: (c) => c.write('world-model/ghost/note.md', '# Note\n'),
  },
  {
    rule: 'wm.unreadable',
    // A link in a node was this rule's case until issue 34: it is now one tree.symlink
    // (spec/hostile/current-run-tree.spec.ts), and the node is not hashed.
    what: 'a .version that is a directory',
    apply: (c) => (c.remove('world-model/scout/.version'), mkdirSync(join(c.run, 'world-model/scout/.version'))),
    also: ['wm.version-missing'],
  },
  {
    rule: 'wm.receipt.object',
    what: 'a receipt that is an array',
    apply: (c) => c.editReceipt('alerts', 0, () => {}, { text: () => '[]' }),
    also: ['wm.chain.prev', 'vmlog.receipt'],
  },
  {
    rule: 'wm.receipt.unknown-key',
    what: "an extra envelope key (a newer runtime's as_of, decision receipt-forward-compat)",
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.as_of = '2026-03-17T14:33:00Z')),
  },
  {
    rule: 'wm.receipt.keys',
    what: 'a missing envelope key',
    apply: (c) => c.editReceipt('scout', 0, (r) => void delete r.input_fingerprints),
    also: ['wm.receipt.field'],
  },
  {
    rule: 'wm.receipt.schema',
    what: 'another schema',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.schema = 'openprose.receipt.v2')),
  },
  {
    rule: 'wm.receipt.field',
    what: 'an empty contract_fingerprint',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.contract_fingerprint = '')),
  },
  {
    rule: 'wm.receipt.wake',
    what: 'a wake ref that is no address',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.wake.refs = ['topic'])),
  },
  {
    rule: 'wm.receipt.fingerprints',
    what: 'an empty facet token',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.fingerprints.facet = '')),
  },
  {
    rule: 'wm.receipt.cost',
    what: 'negative fresh tokens',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.cost.tokens.fresh = -1)),
  },
  {
    rule: 'wm.receipt.surprise-cause',
    what: 'surprise_cause other than wake.source',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.cost.surprise_cause = 'self')),
  },
  {
    rule: 'wm.receipt.signer-unverified',
    what: 'a signer scheme other than none (decision receipt-forward-compat)',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.sig.scheme = 'ed25519')),
  },
  {
    rule: 'wm.receipt.sig',
    what: 'a sig without a scheme',
    apply: (c) => c.editReceipt('scout', 0, (r) => void delete r.sig.scheme),
  },
  {
    rule: 'wm.receipt.skipped',
    what: 'a skipped receipt with fresh tokens',
    apply: (c) => c.editReceipt('alerts', 0, (r) => void (r.cost.tokens.fresh = 5)),
  },
  {
    rule: 'wm.receipt.hash',
    what: 'a stale content_hash',
    apply: (c) => c.editReceipt('scout', 0, (r) => void (r.semantic_diff = {}), { restamp: false }),
  },
  {
    rule: 'wm.chain.prev',
    what: 'a first receipt with a prev',
    apply: (c) => c.editReceipt('alerts', 0, (r) => void (r.prev = SCOUT_ATOMIC)),
  },
  {
    rule: 'wm.chain.node',
    what: "a receipt in another node's file",
    apply: (c) => c.editReceipt('alerts', 0, (r) => void (r.node = 'scout')),
  },
  {
    rule: 'wm.status.copy-forward',
    what: 'a skipped receipt that moved its fingerprint',
    apply: (c) => c.editReceipt('alerts', 0, (r) => void (r.fingerprints['@atomic'] = SCOUT_ATOMIC)),
  },
];
