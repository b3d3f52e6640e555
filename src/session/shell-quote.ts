/** An SQL string literal: single quotes doubled. */
export const sqlLit = (s: string): string => `'${s.replaceAll("'", "''")}'`;
/** Text placed inside shell double quotes: \ $ ` and " get a backslash, so the shell passes them through. */
export const shDq = (s: string): string => s.replace(/[\\$`"]/g, '\\$&');
/** A shell word in single quotes: nothing inside expands; a ' is written '\''. */
export const shSq = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
/** A path as one shell word, quoted only when it needs it. */
export const shWord = (s: string): string =>
  // A leading ~/ stays outside the quotes, so the shell expands it to the home directory.
  s.startsWith('~/') ? `~/${shWord(s.slice(2))}` : /^[\w./-]+$/.test(s) ? s : shSq(s);
