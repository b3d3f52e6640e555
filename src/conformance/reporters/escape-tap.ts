import { visibleControl } from './escape-terminal.ts';

/**
 * Text made safe on one TAP line: line breaks (U+2028 and U+2029 too, which YAML 1.1 readers break at) and every
 * other control character are shown as `\xNN`, so data cannot start a line of its own (a forged `Bail out!` or test point).
 */
export function escapeTapLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, visibleControl);
}

/** A test point's description: one line, with `\` and `#` escaped as TAP 14 says, so data cannot add a directive. */
export function escapeTapDescription(s: string): string {
  return escapeTapLine(s.replace(/\\/g, '\\\\').replace(/#/g, '\\#'));
}
