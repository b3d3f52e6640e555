/**
 * Text made safe for a terminal: every control character but the newline (C0, DEL and C1, so ESC and CSI too) is
 * shown as `\xNN` instead of being sent, so data from a backend can neither colour, move nor clear the screen.
 */
export function escapeTerminal(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g, visibleControl);
}

/** A control character as `\xNN` (or a line or paragraph separator as `\uNNNN`), its code in hex. */
export function visibleControl(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

const hex = (n: number, digits: number) => n.toString(16).toUpperCase().padStart(digits, '0');
