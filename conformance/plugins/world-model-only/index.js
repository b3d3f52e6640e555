// A module plugin that keeps only runs, world-models and receipts, as OpenProse's own runtime storage does: no
// bindings, memory, segments, events, imports or run envelope. `prose-state test --backend
// module:conformance/plugins/world-model-only/index.js` judges it; its capability probes and its crash, concurrency
// and crash-states workloads go through commits (it declares world-model-only). The world-model itself is the
// reference plugin's (../reference/world-model.js), kept durably under the project directory.
import { openBackend } from '../reference/backend.js';
import { ContractError } from '../reference/errors.js';

export const KEPT = new Set([
  'createRun',
  'getRun',
  'setRunStatus',
  'commitWorldModel',
  'failRender',
  'readPublished',
  'readVersion',
  'listReceipts',
  'writeWorkspace',
]);

const CAPABILITIES = ['world-model', 'receipts', 'durable', 'multi-process', 'world-model-only'];

/** The backend over `env`: every kept op goes to the reference semantics; any other is refused, as undeclared. */
export async function openWorldModelOnly(env) {
  const inner = openBackend(env, CAPABILITIES);
  return {
    async call(op, args, actor) {
      if (!KEPT.has(op))
        throw new ContractError('E_UNSUPPORTED', `${op}: this backend keeps only world-models and receipts`);
      return inner.call(op, args, actor);
    },
    // No storage(): nothing of it is laid out for layout checks (its kind is "other").
    close: () => inner.close(),
  };
}

export const factory = {
  name: 'world-model-only',
  kind: 'other',
  capabilities: CAPABILITIES,
  description: 'module plugin keeping only runs, world-models and receipts (the reference world-model, durable files)',
  open: openWorldModelOnly,
};
