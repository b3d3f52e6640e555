// A module plugin in TypeScript, type-checked against the package's declarations (`import type ... from
// 'prose-state'`) by `npm run check` with conformance/plugins/typed-module/tsconfig.json, a consumer's settings.
// Run it with `prose-state test --backend module:conformance/plugins/typed-module/index.ts` (from source: tsx
// loads the TypeScript). The storing is done by the reference plugin's plain JavaScript core; this file is the
// typed boundary a TypeScript author writes: the factory, a call dispatched by op name with each op's own
// argument and result types, and contract errors carrying a code from ErrorCode.
import type {
  Actor,
  Backend,
  BackendEnv,
  BackendFactory,
  Capability,
  ContractError,
  ErrorCode,
  OpArgs,
  OpHandlers,
  OpName,
  OpResults,
  ResumeState,
} from 'prose-state';

// The JavaScript core has no declarations; it is typed here, at the one place it is loaded.
type OpenCore = (env: BackendEnv, capabilities?: readonly Capability[]) => Backend;
const coreUrl = new URL('../reference/backend.js', import.meta.url).href;
const core = (await import(coreUrl)) as { openBackend: OpenCore; CAPABILITIES: Capability[] };

function contractError(code: ErrorCode, message: string, field?: string): ContractError {
  return Object.assign(new Error(message), { code, ...(field ? { location: { field } } : {}) });
}

/** Ops this plugin answers itself, each typed by the vocabulary; the rest go to the core unchanged. */
function ownHandlers(inner: Backend): Partial<OpHandlers> {
  return {
    // resume is answered by the core; the typed result is checked for the fields every resume must carry.
    async resume(args: OpArgs['resume'], actor: Actor): Promise<ResumeState> {
      const state = await inner.call('resume', args, actor);
      if (!Number.isSafeInteger(state.nextExecutionId) || !Number.isSafeInteger(state.anonCount)) {
        throw contractError('E_CORRUPT', `resume of ${args.run} lost its counters`, 'run');
      }
      return state;
    },
  };
}

export const factory: BackendFactory = {
  name: 'typed-module',
  kind: 'directory',
  capabilities: core.CAPABILITIES,
  description: 'module plugin in TypeScript over the reference core, checked against the prose-state declarations',
  async open(env: BackendEnv): Promise<Backend> {
    const inner = core.openBackend(env, core.CAPABILITIES);
    const own = ownHandlers(inner);
    return {
      async call<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): Promise<OpResults[K]> {
        const handler = own[op] as ((a: OpArgs[K], who: Actor) => Promise<OpResults[K]>) | undefined;
        return handler ? handler(args, actor) : inner.call(op, args, actor);
      },
      storage: () => ({ kind: 'directory', projectDir: env.projectDir, homeDir: env.homeDir }),
      close: () => inner.close(),
    };
  },
};
