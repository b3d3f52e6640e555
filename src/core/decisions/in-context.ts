import type { DecisionRow } from './decision-row.ts';

/** Choices of the in-context backend and the transcript checks (docs/in-context.md explains each). */
export const IN_CONTEXT_DECISIONS: DecisionRow[] = [
  {
    id: 'context-tier-characters',
    area: 'in-context',
    setting: 'contextVerbatimBelow',
    spec: 'in-context.md "Context Serialization": < 2000 chars verbatim, 2000-8000 chars summarize, > 8000 chars extract essentials; "chars" is not defined.',
    choice: 'A character is a Unicode code point (a lone surrogate counts as one). contextTier counts code points.',
    why: 'UTF-16 units would count an emoji twice (a JavaScript artefact), bytes are a storage measure (the attachment threshold uses them), and grapheme clusters depend on the Unicode tables of the runtime, so the same value could change tier between Node versions. Code points are stable and what Unicode calls characters.',
  },
  {
    id: 'context-tier-boundaries',
    area: 'in-context',
    setting: 'contextSummarizeUpTo',
    spec: 'in-context.md: "< 2000 chars | Pass verbatim", "2000-8000 chars | Summarize to key points", "> 8000 chars | Extract essentials only".',
    choice:
      'verbatim when length < contextVerbatimBelow (2000); summarize when contextVerbatimBelow <= length <= contextSummarizeUpTo (8000, both ends inclusive); extract when length > 8000. So 1999 verbatim, 2000 summarize, 8000 summarize, 8001 extract.',
    why: 'Read literally the three rows already partition the lengths: "< 2000" excludes 2000, "> 8000" excludes 8000, and the range "2000-8000" takes both ends.',
  },
  {
    id: 'in-context-value-encoding',
    area: 'in-context',
    spec: 'in-context.md shows values inline ([Binding] let research = "AI safety research covers...") and never says how a value with newlines, quotes or "---" is written.',
    choice:
      'Every value, statement text, program, source, memory, prompt, summary and error the store writes is one JSON string literal on one line (JSON.stringify, plus \\u0085, \\u2028 and \\u2029 escaped). Names are bare when they are plain words and JSON literals otherwise. The parser also reads an LLM\'s raw values (<result>, {message: "..."}) but marks them inexact.',
    why: "JSON escapes newlines, quotes, backslashes, control characters and lone surrogates, so any string round-trips exactly and a value can never forge a marker line; it also looks like the seed's own quoted values.",
  },
  {
    id: 'in-context-durability',
    area: 'in-context',
    spec: 'in-context.md: state lives in conversation history; "the VM can recover its execution state by reading its own prior messages". It is lost when the session ends.',
    choice:
      'The factory keeps one transcript per storage (storageKey and projectDir) for its lifetime; close and open continue on the same text, so the backend declares durable. Nothing is written to disk: a new process (a new conversation) starts empty.',
    why: 'A restart step is the VM re-reading its own prior messages, which the seed promises; a new process is a new session, which the seed says loses the state.',
  },
  {
    id: 'in-context-capabilities',
    area: 'in-context',
    spec: 'in-context.md: "cannot support RLM-style environment as variable patterns where agents query arbitrarily large bindings"; imports: 0-2; state lives in the conversation.',
    choice:
      'Declared: durable, world-model, receipts (HEAD: the canonical world-model and the receipt chain "still hold", narrated in conversation: [WorldModel] Version stored with base64 OPWM1 bytes, [WorldModel] Published, [Receipt] NODE: "json", [WorldModel] Envelope and Workspace), layout:transcript. Not declared: attachments (values, not references), project-scope, user-scope and custom-scope (they outlive the conversation), imports (nested runs live in the file layout\'s imports/; the narration only announces them), concurrent-writers (one VM narrates one conversation). Execution-scope agent memory and segments are narrated ([Memory], [Segment]).',
    why: 'Only what one conversation can hold and re-read is claimed; undeclared cases are skipped with that reason and the shared semantics answer E_UNSUPPORTED.',
  },
  {
    id: 'in-context-runs',
    area: 'in-context',
    spec: 'in-context.md narrates one program per conversation ([Program] Program Start ... Program Complete).',
    choice:
      '[Program] Program Start carries (run: ID, started: T) and Program / Program path lines; when the store writes for a run other than the one last spoken of it first says [Program] Continuing run (run: ID). Every later line belongs to the run last named. Execution ids, loops and parallels are per run.',
    why: 'One conversation may hold several runs in a suite case; naming the run only when it changes keeps the narration close to the seed.',
  },
  {
    id: 'in-context-store-extensions',
    area: 'in-context',
    spec: 'The seed has no ids for loops and parallel blocks, no marker for agent memory or segments, and no statement-level completion line.',
    choice:
      'The store adds (loop: ID) and (parallel: ID) to the seed\'s parameter lists; writes statements as [Position] Statement N: "text", [Success] Statement N complete: ..., [Warning] Statement N failed: ..., [Flow] Statement N skipped: ...; and narrates [Memory] Agent NAME memory: "..." and [Segment] Agent NAME segment N (timestamp: T) with Prompt/Summary lines. The parser accepts the seed\'s forms without them and infers ids (innermost open loop, parallel or frame).',
    why: "The shared semantics need exact ids to resume; the seed's own examples stay valid because every extension is optional on read.",
  },
  {
    id: 'in-context-compact',
    area: 'in-context',
    spec: 'HEAD in-context.md uses compact markers (N→ name ✓, ∥ [a b], loop:I/M, #ID name, ---end) and leaves values to "spawn_session results in conversation".',
    choice:
      'The in-context:compact backend (createInContextFactory({dialect: "compact"})) writes those markers for statements, frames, parallels, loops, retries and try, with the ids and statement text in a trailing list (1→ ✓ (text: "...")), plus loop start / loop exit lines; runs, bindings, memory and segments stay verbose lines because the compact dialect has no marker for values.',
    why: 'Compact markers alone cannot be read back into state; the trailing list keeps them HEAD-shaped while making them exact.',
  },
  {
    id: 'transcript-open-at-end',
    area: 'in-context',
    spec: 'in-context.md: "Each [Frame+] must have a matching [Frame-]"; a conversation may be checked mid-run.',
    choice:
      'A frame still open or a parallel never joined at the end of the text is an error when the run was narrated as complete or failed ([Program] Program Complete, ---end), and a warning otherwise.',
    why: 'A transcript cut during a run is not wrong, but a finished program with an open frame is.',
  },
];
