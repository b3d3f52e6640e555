import { ProseError, type ErrorLocation } from '../core/errors.ts';
import { redactCommand } from './redact-command.ts';

/** What the harness saw when a plugin broke the protocol: kept as data and quoted in the message. */
export interface PluginEvidence {
  /** The command that was started. */
  command: string;
  /** The request in flight, e.g. `call bind (seq 3)`. */
  request?: string;
  /** What the plugin wrote instead of a valid reply (cut to a readable length). */
  received?: string;
  /** The end of the plugin's stderr. */
  stderr: string;
  exitCode?: number | null;
  signal?: string | null;
}

const MAX_EXCERPT = 300;

export function excerpt(text: string): string {
  return text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}... (${text.length} characters)` : text;
}

/** How much of what a plugin wrote an error keeps as evidence. */
export const MAX_RECEIVED = 4096;

function keptPart(text: string): string {
  return text.length > MAX_RECEIVED ? `${text.slice(0, MAX_RECEIVED)}... (${text.length} characters)` : text;
}

/** An E_PLUGIN error carrying its evidence, so a report can show why the case errored. */
export class PluginError extends ProseError {
  readonly evidence: PluginEvidence;

  constructor(
    what: string,
    evidence: PluginEvidence,
    opts: { location?: ErrorLocation; hint?: string; cause?: unknown } = {},
  ) {
    const lines = [what];
    if (evidence.request) lines.push(`  request: ${evidence.request}`);
    if (evidence.received !== undefined) lines.push(`  received: ${JSON.stringify(excerpt(evidence.received))}`);
    if (evidence.exitCode !== undefined || evidence.signal)
      lines.push(`  exit: ${evidence.signal ? `signal ${evidence.signal}` : `code ${evidence.exitCode}`}`);
    const tail = evidence.stderr.split('\n').slice(-10).join('\n    ');
    lines.push(`  command: ${redactCommand(evidence.command)}`);
    lines.push(tail ? `  stderr (tail):\n    ${tail}` : '  stderr: (empty)');
    super('E_PLUGIN', lines.join('\n'), {
      hint: opts.hint ?? 'see docs/protocol.md (conformance/plugins/reference/README.md) for the stdio protocol',
      location: opts.location,
      cause: opts.cause,
    });
    // Evidence may be written into shared reports: the command is kept with its secrets masked, and what the plugin
    // wrote is kept only in part (a hostile reply may be megabytes).
    this.evidence = {
      ...evidence,
      command: redactCommand(evidence.command),
      ...(evidence.received !== undefined ? { received: keptPart(evidence.received) } : {}),
    };
  }
}
