import type { Backend, BackendEnv, BackendFactory } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import type { Decisions } from '../../core/decisions.ts';
import { DEFAULT_EDITION, type Edition } from '../../core/editions.ts';
import { commitReadingsOf } from '../../canon/commit-readings.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { createBackend } from '../../core/semantics.ts';
import type { Dialect } from '../../transcript/narration-event.ts';
import { TranscriptStore, type Conversation } from './transcript-store.ts';

/**
 * What in-context state can do (docs/in-context.md "What is not supported"). Not declared, so skipped with the
 * reason: attachments (the seed: "cannot support ... arbitrarily large bindings"), project/user/custom scopes (they
 * outlive the conversation, which is all in-context state has), imports (nested runs are the file layout's
 * `imports/`), concurrent-writers (one VM narrates one conversation). `durable`: a restart within the conversation
 * re-reads the same transcript, which is the recovery the seed promises ("the VM can recover its execution state by
 * reading its own prior messages"). `world-model` and `receipts`: HEAD says the canonical world-model and the receipt
 * chain "still hold", narrated in conversation; the version bytes ride in the narration as base64. Both editions:
 * v0 in the dialect the factory was made with, the current edition in HEAD's compact markers, its only ones
 * (decision in-context-current-forms).
 */
export const IN_CONTEXT_CAPABILITIES: readonly Capability[] = [
  'durable',
  'world-model',
  'receipts',
  'layout:transcript',
  'edition:v0',
  'edition:current',
];

export interface InContextOptions {
  /** `verbose` (the seed's `[Marker]` narration, default) or `compact` (HEAD's `N→` markers), in v0. */
  dialect?: Dialect;
}

/**
 * A factory keeps one conversation per storage (`storageKey` plus `projectDir`, so a reused key never leaks a
 * transcript between cases). The conversations live as long as the factory: that is the session the seed means.
 */
export function createInContextFactory(opts: InContextOptions = {}): BackendFactory {
  const dialect = opts.dialect ?? 'verbose';
  const conversations = new Map<string, Conversation>();
  // A conversation is narrated in one edition's words: the edition is part of its key.
  const keyOf = (env: BackendEnv) => `${env.storageKey}\u0000${env.projectDir}\u0000${env.edition ?? DEFAULT_EDITION}`;
  return {
    name: dialect === 'compact' ? 'in-context:compact' : 'in-context',
    kind: 'transcript',
    capabilities: IN_CONTEXT_CAPABILITIES,
    description:
      `state as narration in the conversation (in-context.md), ${dialect} dialect in v0, compact markers in the ` +
      'current edition; values as JSON string literals',
    settings: { dialect, valueEncoding: 'json-string-literal' },
    async open(env) {
      const key = keyOf(env);
      let conversation = conversations.get(key);
      if (!conversation) {
        conversation = { text: '' };
        conversations.set(key, conversation);
      }
      return createTranscriptBackend(conversation, env.decisions, dialect, env.edition ?? DEFAULT_EDITION);
    },
    async dispose(env) {
      conversations.delete(keyOf(env));
    },
  };
}

/** A backend over one conversation's text: the engine's semantics on a transcript store. */
export function createTranscriptBackend(
  conversation: Conversation,
  decisions: Decisions,
  dialect: Dialect = 'verbose',
  edition: Edition = DEFAULT_EDITION,
): Backend {
  const store = new TranscriptStore(conversation, decisions, dialect, edition);
  return createBackend({
    store,
    extraHandlers: worldModelHandlers(store, commitReadingsOf(decisions)),
    decisions,
    capabilities: IN_CONTEXT_CAPABILITIES,
  });
}

/** The registered backends. Each holds its conversations; specs create their own with createInContextFactory. */
export const inContextFactory: BackendFactory = createInContextFactory();
export const inContextCompactFactory: BackendFactory = createInContextFactory({ dialect: 'compact' });
