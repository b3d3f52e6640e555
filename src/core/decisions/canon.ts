import type { DecisionRow } from './decision-row.ts';

/** Choices about canonical bytes (OPWM1, addresses, canonical JSON, receipts) and the Reactor verifier. */
export const CANON_DECISIONS: DecisionRow[] = [
  {
    id: 'canon-leading-slash',
    area: 'canon',
    spec: 'README.md: "path/encoding normalization", undefined. Reference canonical.ts: its comment says paths "may not escape the artifact root (no leading /)", but the code drops empty segments, so "/dir/x" becomes "dir/x".',
    choice:
      'Follow the reference bytes: a leading "/" is silently stripped; "\\" becomes "/"; empty and "." segments are dropped; ".." and paths that normalize to nothing are E_FORMAT; two raw paths normalizing to one path are E_FORMAT.',
    why: 'The address must equal the reference\'s for the same input; "dir/truth.json", "dir\\truth.json" and "/dir/truth.json" all give sha256:d9be01d6... in table 3.2.',
  },
  {
    id: 'canon-no-unicode-normalization',
    area: 'canon',
    spec: 'README.md promises "path/encoding normalization"; the reference applies no NFC/NFD to paths or contents (only the compiled canonicalizer NFC-normalizes text values).',
    choice:
      'Paths and contents are raw UTF-8 bytes: "café.md" in NFC and in NFD give different addresses (sha256:558dbfa4... vs sha256:07523b02...).',
    why: 'Following the reference bytes; normalizing would silently change addresses of real artifacts.',
  },
  {
    id: 'canon-no-eol-normalization',
    area: 'canon',
    spec: 'Same "encoding normalization" sentence; the reference keeps content bytes as given.',
    choice:
      'No line-ending normalization: "a\\n" and "a\\r\\n" give different addresses (sha256:d5cb362d... vs sha256:a2aaf98f...).',
    why: 'Content is bytes; a canonicalizer that wants EOL tolerance belongs in the compiled canonicalizer, not the store.',
  },
  {
    id: 'canon-path-order',
    area: 'canon',
    spec: 'README.md: "stable file ordering". Reference: sort by UTF-8 path bytes.',
    choice:
      'Files are ordered by UTF-8 path bytes (Buffer.compare), never JS default sort (UTF-16 code units) or locale order: "B" < "a", and U+FF21 < U+1F600. Whole paths are compared, never a per-directory walk: "a.b" < "a/b" ("." is 0x2E, "/" 0x2F), where a walk listing "a" before "a.b" would emit "a/b" first.',
    why: 'The only ordering that matches the reference bytes for every path.',
  },
  {
    id: 'canon-distinct-twins',
    area: 'canon',
    spec: 'README.md: the canonical store does "path/encoding normalization", undefined. The reference keys an artifact by its normalized path string and compares bytes, so "A.txt" and "a.txt", or "café.md" in NFC and in NFD, inside one artifact are two files. A case-insensitive file system (Windows NTFS, macOS APFS by default) or a normalization-insensitive one (APFS) holds only one of each pair.',
    choice:
      'Names are bytes: case-only twins and NFC/NFD twins in one artifact are distinct entries, each hashed, stored and read back with its own content ({"A.txt", "a.txt", "café.md" NFC, "café.md" NFD} -> sha256:c1fffd95..., case deterministic-fingerprints/case-and-normalization-twins). A backend whose storage cannot hold both must refuse the commit (E_INVALID_ARGUMENT, nothing published), never merge them or keep one. Our filesystem backend assumes a case-sensitive, non-normalizing file system (Linux): it reads versions back from their OPWM1 bytes, so readPublished stays right elsewhere, but it does not detect that the published directory lost a twin.',
    why: 'The reference accepts such artifacts, so refusing them would reject real versions; merging them silently loses a file and gives an address the reference never computes.',
  },
  {
    id: 'canon-lone-surrogates',
    area: 'canon',
    spec: "Unstated. The reference's TextEncoder turns a lone surrogate into U+FFFD, so two different names can encode to identical path bytes that its own parser then refuses as a collision.",
    choice: 'A path holding a lone UTF-16 surrogate is E_FORMAT.',
    why: 'Such a path has no UTF-8 form; refusing it is the only way not to emit bytes the reference itself cannot read back.',
  },
  {
    id: 'canon-strict-parse',
    area: 'canon',
    spec: 'Reference deserializeArtifact refuses bad magic, truncation, trailing bytes and normalized collisions, but accepts files in any order and un-normalized stored paths.',
    choice:
      'parseArtifact is canonical by default: stored paths must already be normalized and strictly ascending by UTF-8 bytes (so re-serializing gives the same bytes); { canonical: false } accepts what the reference accepts. Every error is E_FORMAT with the byte offset and the field (files[i].contentLength, ...).',
    why: 'A version file whose bytes are not canonical cannot be the canonical serialization its name claims, even if its hash matches.',
  },
  {
    id: 'canon-json',
    area: 'canon',
    spec: 'filesystem.md: "sorted-key JSON, reusing the receipt\'s canonical-JSON machinery"; never called RFC 8785. Reference jsonFile(): keys by JS .sort(), undefined dropped; receipt hasher: undefined throws.',
    choice:
      'canonicalJson: keys sorted by UTF-16 code units (JS .sort(), not code points), no whitespace, strings and numbers exactly as JSON.stringify (-0 -> 0, 1e21 -> 1e+21, lone surrogates escaped as \\udXXX). undefined object fields are dropped (jsonFile) or refused (receipt hashing, { undefinedFields: "throw" }); undefined in arrays, non-finite numbers, bigint, functions, symbols, cycles and non-plain objects are E_FORMAT. Duplicate keys cannot occur (JS objects). Not declared RFC 8785.',
    why: 'The bytes the reference hashes; code-point order would change the hash of any receipt with an astral-plane key next to a U+E000-U+FFFF key.',
  },
  {
    id: 'canon-receipt-envelope',
    area: 'receipts',
    spec: 'Reference LedgerReceipt: exact key set, extra keys are errors except inside cost; sig exactly {scheme:"none", null_reason}; skipped: empty semantic_diff and zero fresh tokens; cost.surprise_cause equals wake.source.',
    choice:
      'Exactly the reference rules; a missing key is also reported by name. Only content_hash, prev and wake.refs must match ^sha256:[a-f0-9]{64}$; fingerprint and input tokens are opaque non-empty strings (fixtures hold "inbox:1", "contract:...@ingress").',
    why: 'Facts 6.26: the suite must not over-constrain tokens.',
  },
  {
    id: 'canon-chain',
    area: 'receipts',
    spec: 'Reference verifyReceiptChain: per node, first prev null, each later prev = predecessor content_hash, one node per chain. The ledger re-stamps on boot.',
    choice:
      "Same rule, over the node's receipts in ledger order. After an invalid receipt the chain continues from its stated content_hash, so one edit is reported once. A chain re-stamped forward after an edit passes: this is tamper evidence, not non-repudiation (no signatures exist in v1).",
    why: 'Matches tamper-forge (a) and (b).',
  },
  {
    id: 'canon-directory-fingerprint',
    area: 'world-model',
    spec: 'filesystem.md: the node directory is serialized and fingerprinted; .version stamped with the address. Unstated: the root, dotfiles, facet prefixes, empty dirs, links, modes, non-UTF-8 names (facts 6.7).',
    choice:
      'fingerprintDirectory(dir): every regular file under dir, recursively, path relative to dir (published/<facet>/... prefixes included), except a ".version" file directly under dir; other dotfiles count. Empty directories, modes and times do not count. A symlink, socket, FIFO or device inside the tree, or a name that is not valid UTF-8, is E_FORMAT naming the file; a file changing size while read is E_IO. The root itself may be a link (it is followed). .version should hold "sha256:<hex>\\n".',
    why: 'OPWM1 has no entries for links or special files; refusing beats silently choosing to follow or skip. Excluding only the stamp keeps the address a pure function of the published files.',
  },
  {
    id: 'canon-single-file',
    area: 'world-model',
    spec: 'Reference: "a single file as the degenerate case" of an artifact; no path rule given.',
    choice:
      'fingerprint of a single file = the OPWM1 address of an artifact holding that one file under its base name (so "x/truth.json" holding "{}" is sha256:d8e15992...).',
    why: "It is the same address the file would give as the only file of a directory, which is how the fixtures' truth.json versions look.",
  },
  {
    id: 'canon-cold-start',
    area: 'world-model',
    spec: 'Reference: published fingerprints of a node with no commit default to {"@atomic": address of the empty artifact}, version null (facts 6.25).',
    choice:
      'EMPTY_ARTIFACT_ADDRESS = sha256:e59ed801...08e6 is exported; a skipped or failed receipt with no earlier non-failed receipt must carry exactly {"@atomic": that}.',
    why: 'It is what the reference writes and what 7 fixtures carry as a cold-start input fingerprint.',
  },
  {
    id: 'reactor-published',
    area: 'verify',
    spec: 'Reference: published.json is written but never checked (tamper-forge (d): an edited published.json still passes). Facts 6.12: no receipt field names the committed version.',
    choice:
      "We check it: published.json (compared parsed; it is insertion-ordered) must equal the fingerprints of the node's last non-failed receipt, and its version must name an existing versions/*.bin. A rendered receipt's @atomic must name an existing .bin when the node used the atomic canonicalizer (published version == published @atomic); otherwise that is a warning, because a compiled canonicalizer's @atomic is not an address.",
    why: 'Closes the documented integrity gap; the @atomic link is the only receipt-to-version link there is.',
  },
  {
    id: 'reactor-status-rules',
    area: 'verify',
    spec: 'filesystem.md: nothing moved -> a skipped receipt that copies the fingerprints forward; an error -> a failed receipt, nothing commits and no fingerprint moves.',
    choice:
      "A skipped or failed receipt must carry the same fingerprints as the node's previous non-failed receipt (cold-start fingerprints if none). A rendered receipt may leave them unmoved (the fixtures have such renders), and a failed one need not carry semantic_diff.failure_reason (the fixtures' failed receipts have {}). One checker applies these rules to receipts.json and to receipts/{node}.jsonl alike.",
    why: 'Every fixture obeys it; a moved fingerprint on a skip would propagate a change nobody published.',
  },
  {
    id: 'reactor-receipts-bytes',
    area: 'verify',
    spec: 'Reference: receipts.json is canonical JSON of the array plus one LF, rewritten whole through temp+rename.',
    choice:
      'receipts.json that parses but is not byte-identical to canonicalJson(array) + "\\n" is a warning (reactor.receipts-canonical), not an error: every receipt is still checked.',
    why: 'A hand-formatted ledger is still verifiable; the hashes are over each envelope, not the file.',
  },
];
