import { which } from '../../src/bench/which.ts';

/**
 * The system's Chromium for browser specs: PROSE_STATE_CHROMIUM, else `chromium` or `chromium-browser` on PATH
 * (Debian's package; .ci/run installs it). Never a downloaded browser.
 */
export function findChromium(): string | undefined {
  return process.env.PROSE_STATE_CHROMIUM ?? which('chromium', process.env) ?? which('chromium-browser', process.env);
}
