export { moduleFactory } from './module-factory.ts';
export { execFactory, type ExecBackendFactory } from './exec-factory.ts';
export { PluginError, type PluginEvidence } from './plugin-error.ts';
export { PROTOCOL_VERSION } from './protocol-version.ts';
export type { ExecOptions, PluginHello } from './protocol-messages.ts';
