import type { Actor } from '../core/actor.ts';
import type { Backend, BackendEnv, StorageView } from '../core/backend.ts';
import { DEFAULT_EDITION } from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';
import type { OpArgs, OpName, OpResults } from '../core/ops.ts';
import { PluginError } from './plugin-error.ts';
import type { ExecOptions, PluginHello } from './protocol-messages.ts';
import { ProtocolSession } from './protocol-session.ts';

/**
 * Opens an exec plugin on `env`: a NEW process per open (so a restart, or the case after a crash, starts clean),
 * handshake, `open`, then one `call` per operation.
 */
export async function openExecBackend(
  command: string,
  declared: PluginHello,
  env: BackendEnv,
  opts: ExecOptions,
): Promise<Backend> {
  const { session, hello } = await ProtocolSession.start(command, opts);
  try {
    checkSameDeclaration(command, declared, hello);
    await session.request(
      'open',
      {
        env: {
          projectDir: env.projectDir,
          homeDir: env.homeDir,
          storageKey: env.storageKey,
          // Told on every open, so one plugin process can keep either edition's tree (absent from the caller: v0).
          edition: env.edition ?? DEFAULT_EDITION,
          decisions: env.decisions,
        },
      },
      'open',
    );
  } catch (err) {
    await session.close().catch(() => {});
    throw err;
  }
  const view: StorageView | undefined =
    hello.kind === 'directory' && hello.capabilities.includes('layout:directory')
      ? { kind: 'directory', projectDir: env.projectDir, homeDir: env.homeDir }
      : undefined;
  return {
    async call<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): Promise<OpResults[K]> {
      // The protocol carries arguments as an object; anything else is the answer checkArgs gives built-in backends.
      if (!args || typeof args !== 'object' || Array.isArray(args)) {
        throw new ProseError('E_INVALID_ARGUMENT', `${op} takes an object of arguments`, {
          location: { field: 'args' },
        });
      }
      const result = await session.request('call', { op, args, actor }, `call ${op}`);
      return result as unknown as OpResults[K];
    },
    ...(view ? { storage: () => view } : {}),
    close: () => session.close(),
  };
}

/** A plugin must declare the same thing to every process it starts, or capability checks would mean nothing. */
function checkSameDeclaration(command: string, first: PluginHello, now: PluginHello): void {
  const caps = (h: PluginHello) => [...h.capabilities].sort().join(',');
  for (const [field, a, b] of [
    ['name', first.name, now.name],
    ['kind', first.kind, now.kind],
    ['capabilities', caps(first), caps(now)],
  ] as const) {
    if (a !== b) {
      throw new PluginError(
        `plugin declared ${field} ${JSON.stringify(b)} on open, but ${JSON.stringify(a)} at the first handshake`,
        { command, request: 'hello (seq 0)', stderr: '' },
        { location: { field } },
      );
    }
  }
}
