/**
 * The fixed pieces of the instructions a VM hands a subagent (build-instructions.ts): the markers around what the
 * subagent copies verbatim, the placeholders it replaces, the memory and summary templates, and two helpers that let
 * the texts be written as they read, one output line per source line or one long line over several.
 */

/** Markers around what the subagent copies verbatim, so a literal reader cannot mistake where it starts and ends. */
export const BEGIN_FILE = '----- BEGIN FILE -----';
export const END_FILE = '----- END FILE -----';
export const BEGIN_COMMAND = '----- BEGIN COMMAND -----';
export const END_COMMAND = '----- END COMMAND -----';
export const BEGIN_RETURN = '----- BEGIN RETURN -----';
export const END_RETURN = '----- END RETURN -----';
export const PLACEHOLDER = {
  value: '{Your output here}',
  sqlValue: '<VALUE>',
  memory: '<MEMORY>',
  summary: '<SUMMARY>',
  timestamp: '<TIMESTAMP>',
  returnSummary: '{Summary}',
  bytes: '<BYTES>',
} as const;
/**
 * The two ways to store an output, by its size: a literal reader keeps the branch whose condition its output meets
 * and drops the other, markers and all (follow-instructions.ts `chooseBranch`).
 */
export const BEGIN_SMALL = (t: number) => `----- BEGIN IF YOUR OUTPUT IS AT MOST ${t} BYTES -----`;
export const BEGIN_LARGE = (t: number) => `----- BEGIN IF YOUR OUTPUT IS MORE THAN ${t} BYTES -----`;
export const END_BRANCH = '----- END IF -----';

/** The given lines, each ended by a newline (an empty string is an empty line). */
export const lines = (...ls: string[]): string => ls.map((l) => `${l}\n`).join('');

/**
 * One line of output written over several source lines: each line break in the template's own text, with the
 * spaces around it, becomes one space. What is substituted into it is left as it is.
 */
export function oneLine(strings: TemplateStringsArray, ...values: unknown[]): string {
  const join = (s: string) => s.replace(/[ \t]*\n[ \t]*/g, ' ');
  return strings.slice(1).reduce((acc, s, i) => acc + String(values[i]) + join(s), join(strings[0] ?? ''));
}

export const MEMORY_TEMPLATE = (agent: string) =>
  lines(
    `# Agent Memory: ${agent}`,
    '',
    '## Current Understanding',
    '',
    '{what you know about the project/task: update, do not replace}',
    '',
    '## Decisions Made',
    '',
    '- {YYYY-MM-DD}: {decision} — {rationale}',
    '',
    '## Open Concerns',
    '',
    '- {concern}',
  );
export const SUMMARY_TEMPLATE = lines(
  '- Reviewed: {what you examined, where (file:line)}',
  '- Found: {specific findings}',
  '- Decided: {specific decisions}',
  '- Next: {what should happen next}',
);

/** How a subagent writes text into a single-quoted SQL string inside shell double quotes (the sqlite3 commands). */
export const SQLITE_VALUE_RULE = (p: string) => oneLine`replace ${p} with your text written as the inside of an SQL
  string: double every ' (SQL), then put a backslash before every \\, $, \` and " (the SQL sits in shell double quotes)`;

/** How a subagent writes text into a psql variable given in shell single quotes. */
export const PSQL_VALUE_RULE = (ps: string) => oneLine`replace ${ps} with your text, writing each ' in it as '\\''
  (the values sit in shell single quotes; psql quotes them for SQL)`;
