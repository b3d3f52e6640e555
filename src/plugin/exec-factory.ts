import type { BackendEnv, BackendFactory } from '../core/backend.ts';
import { openExecBackend } from './exec-backend.ts';
import type { ExecOptions, PluginHello } from './protocol-messages.ts';
import { ProtocolSession } from './protocol-session.ts';
import { redactCommand } from './redact-command.ts';

/** A backend factory speaking the stdio protocol, with the plugin's declaration exactly as handshaken. */
export interface ExecBackendFactory extends BackendFactory {
  readonly command: string;
  readonly declared: Readonly<PluginHello>;
}

/**
 * Starts `command` once (through /bin/sh -c; cmd.exe on Windows) to learn what it declares, then ends it; each `open` starts a fresh
 * process. A plugin that cannot be started, exits, hangs or answers a different protocol version is E_PLUGIN here.
 */
export async function execFactory(command: string, opts: ExecOptions = {}): Promise<ExecBackendFactory> {
  const options: ExecOptions = { suite: 'unknown', ...opts };
  const { session, hello } = await ProtocolSession.start(command, options);
  await session.end();
  const declared = Object.freeze({ ...hello, capabilities: [...hello.capabilities] });
  return {
    name: hello.name,
    kind: hello.kind,
    capabilities: Object.freeze([...hello.capabilities]),
    description: hello.description ?? `exec plugin: ${redactCommand(command)}`,
    settings: { command: redactCommand(command), protocol: String(hello.protocol) },
    command,
    declared,
    open: (env: BackendEnv) => openExecBackend(command, declared, env, options),
  };
}
