import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The system's Chromium for browser specs: PROSE_STATE_CHROMIUM, else `chromium` or `chromium-browser` on PATH
 * (Debian's package; .ci/run installs it). Never a downloaded browser.
 */
export function findChromium(): string | undefined {
  if (process.env.PROSE_STATE_CHROMIUM) return process.env.PROSE_STATE_CHROMIUM;
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    for (const name of ['chromium', 'chromium-browser']) {
      const p = join(dir, name);
      try {
        accessSync(p, constants.X_OK);
        return p;
      } catch {
        // not here
      }
    }
  return undefined;
}
