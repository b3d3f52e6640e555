/**
 * Text made safe for a terminal: every control character but the newline (C0, DEL and C1, so ESC and CSI too) is
 * shown as `\xNN` instead of being sent, so data from a backend can neither colour, move nor clear the screen.
 */
export function escapeTerminal(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g, visibleControl);
}

/** A control character as `\xNN`, its code in hex. */
export const visibleControl = (c: string) => `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
