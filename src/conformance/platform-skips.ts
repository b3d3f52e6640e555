import type { StorageKind } from '../core/backend.ts';
import type { Case } from './case-types.ts';

/**
 * Why a case cannot hold on `platform`, or undefined: the cases docs/decisions.md (area platforms) lists as
 * skipped there. Everything else runs on every platform the binary is built for.
 */
export function platformSkip(c: Case, storage: StorageKind, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return undefined;
  if (storage === 'sqlite' && c.steps.some((s) => s.kind === 'subagent'))
    return 'on Windows: the sqlite instructions a scripted subagent follows are POSIX sh lines, and Windows has no /bin/sh (decisions platform-subagent-shell)';
  return undefined;
}
