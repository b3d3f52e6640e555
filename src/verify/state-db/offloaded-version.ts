import { join } from 'node:path';
import { kindOf, readOwned, RefusedFile } from '../kit/owned-files.ts';

/** An offloaded version's bytes, or why they could not be read: `outside` (the path leaves attachments/), `missing`. */
export type Offloaded =
  { bytes: Uint8Array } | { problem: 'outside' | 'missing' | 'not-a-file'; message: string } | { tooLarge: string };

/** Where an offloaded artifact may lie, relative to the base it is read from: a test of the path's parts, and its name. */
export interface OffloadPlace {
  holds(parts: readonly string[]): boolean;
  says: string;
}

/** attachments/ of the run directory (a state.db's run). */
export const RUN_ATTACHMENTS: OffloadPlace = {
  holds: (parts) => parts[0] === 'attachments' && parts.length >= 2,
  says: 'attachments/',
};

/**
 * The bytes of a world_model_version row whose artifact is offloaded to `attachment_path` (sqlite.md, postgres.md:
 * "set when artifact is offloaded to attachments/"), read from under `base` (the run directory for a state.db). The
 * path must be relative and lie in `place` (attachments/ of the run), each part a real directory or, last, a regular
 * file: a link, a `..` or an absolute path is a finding and is never followed, so nothing outside the tree is read.
 */
export function readOffloaded(
  base: string,
  stored: string,
  maxBytes: number,
  place: OffloadPlace = RUN_ATTACHMENTS,
): Offloaded {
  const parts = stored.split('/');
  if (
    stored.startsWith('/') ||
    stored.includes('\\') ||
    !place.holds(parts) ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  )
    return {
      problem: 'outside',
      message: `attachment_path ${JSON.stringify(stored)} is not a relative path under ${place.says}: not read`,
    };
  for (let i = 1; i < parts.length; i++) {
    const kind = kindOf(join(base, ...parts.slice(0, i)));
    if (kind === 'missing') return { problem: 'missing', message: `attachment ${stored} does not exist` };
    if (kind !== 'dir')
      return { problem: 'not-a-file', message: `${parts.slice(0, i).join('/')} of ${stored} is a ${kind}: not read` };
  }
  const file = join(base, ...parts);
  const kind = kindOf(file);
  if (kind === 'missing') return { problem: 'missing', message: `attachment ${stored} does not exist` };
  if (kind !== 'file')
    return { problem: 'not-a-file', message: `attachment ${stored} is a ${kind}, not a file: not read` };
  try {
    return { bytes: new Uint8Array(readOwned(file, maxBytes)) };
  } catch (err) {
    if (err instanceof RefusedFile && err.why === 'too-large')
      return { tooLarge: `attachment ${stored} is over ${maxBytes} bytes: not read, its hash not checked` };
    if (err instanceof RefusedFile)
      return { problem: 'not-a-file', message: `attachment ${stored}: not read (${err.why})` };
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return { problem: 'missing', message: `attachment ${stored} cannot be read (${code})` };
  }
}
