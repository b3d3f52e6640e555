import type { DecisionRow } from './decision-row.ts';

/** Choices about the canonical world-model store, receipts and the run envelope (src/canon/world-model-ops.ts). */
export const WORLD_MODEL_DECISIONS: DecisionRow[] = [
  {
    id: 'wm-hashed-root',
    area: 'world-model',
    spec: 'filesystem.md: world-model/{node}/*.md plus .version; "stamp .version with the content address". Which root is hashed, and whether .version counts, is unstated (facts 6.7).',
    choice:
      'The address is the OPWM1 address of every regular file under world-model/{node}/, paths relative to that directory, except the root .version (the same walk as `prose-state fingerprint`, decision canon-directory-fingerprint). Facet sub-directories (published/<facet>/) are ordinary path prefixes. No artifact may hold a file named .version at its root, nor a file that is also the directory of another ("a" and "a/b"): E_INVALID_ARGUMENT on every backend.',
    why: 'The suggested default; it makes the published directory re-hashable by anyone with the canon library, and the two refusals are the only artifacts a directory cannot hold.',
  },
  {
    id: 'wm-version-file',
    area: 'world-model',
    spec: 'filesystem.md: ".version" is "stamped" with the content address; byte format unstated.',
    choice:
      '.version holds exactly "sha256:<64 lowercase hex>\\n" (one LF, no other bytes). Anything else is E_CORRUPT when read.',
    why: 'A text file ending in a newline, the suggested default; exact bytes make layout cases possible.',
  },
  {
    id: 'wm-version-store',
    area: 'world-model',
    spec: 'The seed state README: "All durable backend paths are relative to <openprose-root>" and persistent backends keep the "state/ durable cross-run namespace"; filesystem.md (HEAD): state/world-model/{node}/versions/ "prior versions named by ContentAddress"; reference fs-store: versions/sha256_<hex>.bin.',
    choice:
      'A departure from the seed: every committed version (the published one too) is kept as its exact OPWM1 bytes in <run dir>/state/world-model/{node}/versions/sha256_<hex>.bin, the seed\'s path relative to the run directory instead of <openprose-root>, so versions live and die with their run; the reference file name (":" is not a portable file-name character). The SQL backends likewise keep versions in the run\'s own rows (wm-sql-keys). Only world-model/version-store-per-run checks where versions live.',
    why: "Every world-model operation names a run, and a version is reached only through that run's receipts and .version, which the seeds put under runs/{id}/; keeping the bytes beside them makes a run directory whole on its own (copied, verified or deleted without the others), and no operation reads another run's versions. Imports nest naturally; the reference name keeps Reactor tooling applicable. Moving versions to <openprose-root>/state/ is the seed-literal alternative (content addresses make sharing safe); selftest mutant world-model-versions-cross-run does that and fails only this decision's case.",
  },
  {
    id: 'wm-publish-order',
    area: 'world-model',
    spec: 'Reference: the version file is written before the pointer flips; writes are temp + rename.',
    choice:
      'commitWorldModel writes the version bytes, then publishes (filesystem: lays the files out in world-model/{node}/, stale files removed, then writes .version atomically), then appends the rendered receipt. The published pointer is .version; readPublished returns the bytes of the version it names, so a crash before the flip leaves the old version readable.',
    why: 'A reader never sees a pointer to bytes that are not durable.',
  },
  {
    id: 'wm-cold-start',
    area: 'world-model',
    spec: 'Reference store: a node that never committed has version null and published fingerprints {"@atomic": address of the empty artifact} (facts 6.25).',
    choice:
      'readPublished of such a node answers {version: null, fingerprints: {"@atomic": "sha256:e59ed801..."}, files: {}} on every backend; its first commit compares against those fingerprints, so committing the empty artifact first is skipped.',
    why: 'The reference behaviour; the empty-artifact address appears as a cold-start input fingerprint in 7 fixtures.',
  },
  {
    id: 'wm-atomic-canonicalizer',
    area: 'world-model',
    spec: 'filesystem.md: fingerprints come from the compiled canonicalizer, @atomic always present.',
    choice:
      'The operations use the default atomic canonicalizer: fingerprints = {"@atomic": version address}. Compiled canonicalizers (facets, immaterial fields) are out of scope of the operations.',
    why: 'The only canonicalizer whose tokens are defined by bytes alone; it is what the reference uses by default.',
  },
  {
    id: 'wm-receipt-version-link',
    area: 'receipts',
    spec: 'The receipt has no version field; @atomic equals the version only under the atomic canonicalizer (facts 6.12).',
    choice:
      'No field is added. The version a rendered receipt committed is its fingerprints["@atomic"]; skipped and failed receipts commit nothing and copy the previous fingerprints forward.',
    why: 'Adding a key would break the exact key set and every receipt hash; under the atomic canonicalizer the link is exact.',
  },
  {
    id: 'wm-version-chain',
    area: 'world-model',
    spec: 'sqlite.md/postgres.md: blobs keyed by ContentAddress "with version chain", no column for it (facts 6.13).',
    choice:
      'The version chain of a node is its receipt chain: the rendered receipts in prev order, each naming its version by @atomic. No prev_version column.',
    why: 'The receipts are the source of truth for resumption; a second chain could disagree with it.',
  },
  {
    id: 'wm-receipts-file',
    area: 'receipts',
    spec: 'filesystem.md: receipts/{node}.jsonl; reference: one flat receipts.json (facts 6.11).',
    choice:
      'receipts/{node}.jsonl: one receipt per line, each line the canonical JSON of the whole envelope (content_hash included), ending in one LF; appended by an atomic rewrite, so a torn line cannot appear. listReceipts returns the parsed envelopes.',
    why: 'The spec layout with the reference bytes per receipt; byte-identical on every backend.',
  },
  {
    id: 'wm-list-order',
    area: 'receipts',
    spec: 'Per-node .jsonl files keep no order across nodes.',
    choice:
      "listReceipts without a node answers every node, nodes in UTF-8 byte order of their names, each node's chain in append order. With a node: that chain.",
    why: 'The only order the spec layout can reproduce; every backend answers the same.',
  },
  {
    id: 'wm-semantic-diff',
    area: 'receipts',
    spec: 'filesystem.md: a skipped receipt has an empty semantic_diff; a failed one can carry failure_reason; a rendered one is unstated.',
    choice:
      'rendered: {"<facet>": {"from": previous token, "to": new token}} for each moved facet (here only "@atomic"); skipped: {}; failed: {"failure_reason": reason}.',
    why: 'Deterministic, derived from the fingerprints alone, so receipts are byte-identical across backends.',
  },
  {
    id: 'wm-receipt-defaults',
    area: 'receipts',
    spec: 'Unstated what a commit without wake or cost records.',
    choice:
      'wake defaults to {source: "external", refs: []}, inputFingerprints to [], provider and model to "none", tokens to {fresh: 0, reused: 0}; cost.surprise_cause = wake.source; sig is the null signature with reason "no-signer-adapter-configured". Skipped and failed receipts carry the reference zero cost (provider/model "none", tokens 0) whatever tokens were passed. No timestamps inside an envelope.',
    why: 'The settings of the minimal receipt vector (sha256:75a3de59...), so its hash is reproducible; no clock in the bytes.',
  },
  {
    id: 'wm-failed-render',
    area: 'world-model',
    spec: 'filesystem.md: an error writes workspace/{node}/__error.md and a failed receipt; "nothing commits and no fingerprint moves".',
    choice:
      'failRender appends a failed receipt (fingerprints copied forward from the last receipt, or the cold-start ones) and touches nothing else: no version, no pointer flip, no workspace file. The next commit compares against the copied-forward fingerprints.',
    why: "Writing __error.md is the render's business (workspace is render-owned); the contract is the receipt.",
  },
  {
    id: 'wm-workspace',
    area: 'world-model',
    spec: 'filesystem.md: workspace/ is private, never fingerprinted, never subscribed to.',
    choice:
      'writeWorkspace replaces workspace/{node}/ with the given files (stored as OPWM1 bytes in SQL), changes no address, receipt or published pointer.',
    why: 'The reference keeps one workspace.bin per node, replaced on write.',
  },
  {
    id: 'wm-node-names',
    area: 'world-model',
    spec: 'Node names become directory and file names (world-model/{node}/, receipts/{node}.jsonl); world-model/caller/ holds caller inputs.',
    choice:
      'Node names follow the common name rules (E_INVALID_NAME: separators, "..", leading ".", controls, non-NFC, ...) and "caller" is reserved.',
    why: 'A node named caller would collide with the caller-input directory.',
  },
  {
    id: 'wm-envelope',
    area: 'world-model',
    spec: 'README.md: before reporting success a durable backend writes compiled intent, root.prose.md and sources/; sources/ is immutable during execution.',
    choice:
      'compiled-intent.json holds the canonical JSON of the compiled intent plus one LF; root.prose.md the source as given; sources/<path> each snapshot (normalized relative paths). Writing the same envelope again is a no-op; a different one is E_CONFLICT. readEnvelope before any write is E_NOT_FOUND.',
    why: 'Immutable snapshots; canonical JSON makes the intent byte-identical across backends.',
  },
  {
    id: 'wm-single-writer',
    area: 'world-model',
    spec: 'filesystem.md "Who writes what": the VM alone writes world-model/{node}, .version and receipts/*.jsonl.',
    choice:
      "One VM writes a run's world-model: calls on one (run, node) are serialized within a backend instance, so its chain never forks. Two processes committing the same node at once are outside the contract (concurrent-writers covers bindings and segments only).",
    why: 'The spec names one writer; a cross-process lock around read-previous-receipt-then-append would cost every commit for a case the spec excludes.',
  },
  {
    id: 'wm-sql-keys',
    area: 'sql',
    spec: 'sqlite.md/postgres.md: world_model_version(version PK, node, ...), world_model_published(node PK, ...), receipt rows without content_hash/schema/hash_algorithm; postgres has no run_id on the world-model tables (facts 6.14, 1.4 defects 3-5).',
    choice:
      'world_model_version is keyed (node, version) (Postgres: (run_id, node, version)); world_model_published (node) (Postgres: (run_id, node)); receipt rows keep the spec columns plus content_hash, one row per envelope, in append order by id; the envelope is rebuilt from the columns (schema and hash_algorithm are constants) and must re-hash to content_hash.',
    why: 'Identical artifacts of two nodes share an address; a shared Postgres database holds many runs.',
  },
  {
    id: 'wm-projection',
    area: 'sql',
    spec: 'README.md: SQL tables are derived projections, rebuildable from the canonical store.',
    choice:
      "For the world-model the only projection we keep is the published pointer: dropped, it is rebuilt from the receipts (the last non-failed receipt's @atomic, when that version is stored) and answers the same readPublished.",
    why: 'Versions and receipts are the canonical store; the pointer is derivable from them.',
  },
  {
    id: 'wm-openprose-root',
    area: 'world-model',
    spec: 'The world-model text puts durable paths under <openprose-root> (the repository root, repo/.agents/prose or ~/.agents/prose), runs at <openprose-root>/runs/{id}/ and a cross-run state/ namespace; filesystem.md puts runs under .prose/runs/{id}/. Neither says how the two relate.',
    choice:
      "<openprose-root> is the project's .prose/ directory: a run's envelope (compiled-intent.json, root.prose.md, sources/), receipts/, world-model/, workspace/ and state/world-model/ sit in .prose/runs/{id}/ beside the seed's state.md, bindings/ and agents/. The state/ namespace is kept per run. .agents/prose is not looked for.",
    why: 'One directory per run holds everything a resume or verify needs, and the seed tree stays where filesystem.md and the cases expect it; no operation reads world-model state across runs yet.',
  },
  {
    id: 'wm-vm-log',
    area: 'world-model',
    spec: 'The world-model text lists "vm.log.md + receipts/" as the filesystem ledger; filesystem.md records execution in state.md and says nothing of vm.log.md.',
    choice:
      'No vm.log.md is written or read: the execution log is state.md (state-md-event-log) and the receipt ledger is receipts/{node}.jsonl (wm-receipts-file). verify neither requires nor checks it.',
    why: "Two logs of one execution could disagree; state.md is the one the seed's resume reads, and the receipts carry what the ledger must.",
  },
];
