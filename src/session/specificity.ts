/**
 * session.md 3.1-3.6: "compaction is not summarization". A text passes when it names at least one specific: a
 * location (a path, `file.ts`, `line 67`), a number, or an identifier (`User.authenticate()`, camelCase,
 * snake_case, `code`, "a quoted name", #123). The bad example of 3.5 ("Reviewed the implementation. Found some
 * issues. Requested changes.") has none; the good one has several.
 */
const SPECIFICS: readonly RegExp[] = [
  /\d/, // numbers, line numbers, thresholds, dates
  /[\w.-]+\/[\w.-]+/, // a path
  /\b\w+\.[A-Za-z]{1,5}\b/, // a file name or a dotted identifier (UserService.ts, User.authenticate)
  /\b[a-z]+[A-Z]\w*/, // camelCase
  /\b[A-Z][a-z0-9]+[A-Z]\w*/, // PascalCase with a second hump (UserService)
  /\b[A-Za-z]+_\w+/, // snake_case
  /\w\(\)/, // a call
  /`[^`]+`/, // code
  /"[^"]+"|“[^”]+”/, // a quoted name
];

export function isSpecific(text: string): boolean {
  return SPECIFICS.some((re) => re.test(text));
}
