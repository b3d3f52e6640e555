import { unreachable } from './unreachable.ts';

/** How a scripted subagent departs from its instructions, to check the checker finds it (subagent-deviation.ts). */
export const DEVIATIONS = [
  'echo-value',
  'no-write',
  'wrong-execution-id',
  'no-summary',
  'mis-cased-key',
  'location-outside-run',
  'skip-segment',
  'reuse-segment',
  'no-execution-id',
  'no-memory-block',
  'decision-without-rationale',
  'ignore-large-output',
  'v0-location',
  'v0-columns',
] as const;
export type Deviation = (typeof DEVIATIONS)[number];

/**
 * The ways a scripted subagent departs from its instructions, each one a mistake session.md warns about, so a case
 * can check that the checker names it. Each works on the message or the segment number only: what the subagent
 * writes is still what the instructions say, for the number it was given.
 */
export function segmentOffset(d: Deviation | undefined): number {
  if (d === 'skip-segment') return 1; // writes one past the number the VM handed out
  if (d === 'reuse-segment') return -1; // overwrites the newest segment instead of adding one
  return 0;
}

export function deviateMessage(d: Deviation | undefined, message: string, value: string): string {
  switch (d) {
    case 'echo-value':
      return `${message}\n${value}\n`;
    case 'wrong-execution-id':
      return message.replace(/^Execution ID: (\d+)$/m, (_, n: string) => `Execution ID: ${Number(n) + 1}`);
    case 'no-summary':
      return message.replace(/^Summary: .*\n/m, '');
    case 'mis-cased-key':
      return message.replace(/^Binding written:/m, 'binding written:');
    case 'no-execution-id':
      return message.replace(/^Execution ID: .*\n/m, '');
    case 'no-memory-block':
      // The binding block alone: the agent's memory and segment go unconfirmed.
      return message.replace(/\n*^Memory updated:[\s\S]*$/m, '\n');
    case 'decision-without-rationale':
      return `${message}\nDECISION: Approve the chunking plan in src/chunk.ts:12\n`;
    case 'location-outside-run':
      return message.replace(/^Location: (.*)$/m, (_, loc: string) => `Location: ${outside(loc)}`);
    case 'v0-location':
      return message.replace(/^Location: (.*)$/m, (_, loc: string) => `Location: ${v0Location(loc)}`);
    case 'no-write':
    case 'skip-segment':
    case 'reuse-segment':
    case 'ignore-large-output':
    case 'v0-columns':
    case undefined:
      return message;
    default:
      return unreachable(d, 'deviation');
  }
}

/** The same location form, moved out of the run: a path beside `.prose/`, or another run's id. */
function outside(loc: string): string {
  if (loc.startsWith('openprose.')) return loc.replace(/run_id='[^']*'/, "run_id='19700101-000000-zzzzzz'");
  const sp = loc.indexOf(' (');
  const path = sp === -1 ? loc : loc.slice(0, sp);
  const file = path.slice(path.lastIndexOf('/') + 1);
  return `outside/${file}${sp === -1 ? '' : loc.slice(sp)}`;
}

/**
 * The location as the v0 texts write it: the run's database under `.prose/` (v0 sqlite.md "Database Location"); a
 * postgres location without the current text's `AND execution_id IS NULL`, which names the same row.
 */
function v0Location(loc: string): string {
  if (loc.startsWith('openprose.')) return loc.replace(/ AND execution_id IS NULL$/, '');
  return loc.startsWith('runs/') ? `.prose/${loc}` : loc;
}

/**
 * The instructions a deviating subagent reads instead: `v0-columns` writes the bindings row with v0's `kind` column
 * where the current Core Schema names it `binding` (sqlite.md, postgres.md).
 */
export function deviateInstructions(d: Deviation | undefined, text: string): string {
  if (d !== 'v0-columns') return text;
  return text
    .replace(/(INTO (?:openprose\.)?bindings\s*\(name, (?:run_id, )?execution_id, )binding,/g, '$1kind,')
    .replaceAll('SET binding = EXCLUDED.binding', 'SET kind = EXCLUDED.kind');
}

/**
 * How the storage refuses what a deviating subagent writes: a repeated segment number (SQLite "UNIQUE constraint
 * failed", PostgreSQL "duplicate key value"), or v0's bindings column in a current-edition table.
 */
export function refusalOf(d: Deviation | undefined): RegExp {
  if (d === 'v0-columns') return /no column named kind|column "kind" .*does not exist/i;
  return /UNIQUE constraint failed|duplicate key value violates unique constraint/i;
}
