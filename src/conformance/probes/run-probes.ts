import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BackendEnv, BackendFactory } from '../../core/backend.ts';
import { CAPABILITIES, type Capability } from '../../core/capabilities.ts';
import type { Decisions } from '../../core/decisions.ts';
import { DEFAULT_EDITION } from '../../core/editions.ts';
import { toProseError } from '../../core/errors.ts';
import type { CapabilityReport } from './capability-report.ts';
import { probeCapabilities } from './capability-probes.ts';

/**
 * Runs the capability probes of one backend on fresh storage under `dir`, then disposes of it (a database schema,
 * the directory). Never throws: a prober that fails as a whole errors every capability with its message.
 */
export async function probeBackend(
  factory: BackendFactory,
  decisions: Decisions,
  dir: string,
  timeoutMs: number,
): Promise<CapabilityReport> {
  const env: BackendEnv = {
    projectDir: join(dir, 'project'),
    homeDir: join(dir, 'home'),
    decisions,
    storageKey: dir,
    edition: factory.edition ?? DEFAULT_EDITION,
  };
  const started = performance.now();
  try {
    mkdirSync(env.projectDir, { recursive: true });
    mkdirSync(env.homeDir, { recursive: true });
    const verdicts = await probeCapabilities(factory, env, { timeoutMs });
    return { backend: factory.name, durationMs: Math.round(performance.now() - started), verdicts };
  } catch (err) {
    const e = toProseError(err);
    const verdicts = (Object.keys(CAPABILITIES) as Capability[]).map((capability) => ({
      capability,
      declared: factory.capabilities.includes(capability),
      works: null,
      verdict: 'errored' as const,
      detail: `the probes could not run: ${e.code}: ${e.message}`,
    }));
    return { backend: factory.name, durationMs: Math.round(performance.now() - started), verdicts };
  } finally {
    await factory.dispose?.(env).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
