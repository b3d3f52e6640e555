import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DECISIONS } from '../core/decisions.ts';
import type { Edition } from '../core/editions.ts';
import type { Finding } from '../verify/finding.ts';
import { checkBinding } from './check-binding.ts';
import { checkMemory } from './check-memory.ts';
import { parseConfirmation, type BindingBlock, type MemoryBlock } from './parse-confirmation.ts';
import { parseSignals } from './parse-signals.ts';
import { resolveRunTarget, type PgQuery, type RunTarget } from './run-target.ts';
import type { SubagentStorageKind } from '../core/backend.ts';
import { finding } from './session-rules.ts';
import { checkRenderReply } from './check-render-reply.ts';
import { runEdition } from './run-edition.ts';

/** The pinned "pointers, not values" limits (conformance/decisions/session.yaml `session-pointer-limits`). */
export const SUMMARY_MAX_CHARS = 300;
export const ECHO_MIN_CHARS = 200;
export const EXTRA_TEXT_MAX_LINES = 20;

export interface SubagentOutputOptions {
  /** How findings name the message: the file given on the command line (default `<subagent-output>`). */
  file?: string;
  /** The project directory (default: found by walking up from the run to `.prose/runs`). */
  projectDir?: string;
  /** Stands in for `~` (user-scoped agents). */
  homeDir?: string;
  /** Force the storage kind instead of detecting it from the run directory (state.db or state.md). */
  storage?: SubagentStorageKind;
  /** Reads openprose.* for postgres locations; without it those rows are reported as unchecked. */
  pgQuery?: PgQuery;
  /** What the VM asked for, when known: checked against the message. */
  expect?: {
    binding?: string;
    executionId?: number | null;
    kind?: string;
    agent?: string;
    segment?: number;
    /** The node the VM rendered (current edition). */
    node?: string;
  };
  /** Which edition's reply to expect (default: the run directory's, run-edition.ts): v0's confirmation or a render's. */
  edition?: Edition;
  summaryMaxChars?: number;
  echoMinChars?: number;
  /** Above this many UTF-8 bytes a value must be attached (default: the pinned decision attachment-threshold). */
  attachmentThresholdBytes?: number;
}

/**
 * Checks what a subagent returned to the VM (session.md 5 and 7) against the run's state: the confirmation lines,
 * the binding where the Location says, memory and segment of a persistent agent, and the signals. Never throws on a
 * bad message or bad state: each problem is a finding with a rule id, a line and a hint.
 */
export async function checkSubagentOutput(
  text: string,
  runPath: string,
  opts: SubagentOutputOptions = {},
): Promise<Finding[]> {
  const file = opts.file ?? '<subagent-output>';
  const edition = opts.edition ?? runEdition(runPath);
  const storage = opts.storage ?? (existsSync(join(runPath, 'state.db')) ? 'sqlite' : 'directory');
  // The current texts give directory storage a render's reply, SQL storage the binding confirmation (current-sql-subagent).
  if (edition === 'current' && storage === 'directory') return checkCurrentReply(text, runPath, file, opts);
  const target = resolveRunTarget(runPath, { ...opts, edition });
  const signals = parseSignals(text, file);
  const conf = parseConfirmation(text, file, signals.consumed);
  const out: Finding[] = [...conf.findings, ...signals.findings];
  const c: MessageCheck = { target, file, opts, out, at: (line) => ({ file, line }) };
  const value = await checkBindingBlock(conf.binding, c);
  await checkMemoryBlock(conf.memory, c);
  out.push(...pointerFindings(text, conf.extraLines, value, file, opts.echoMinChars ?? ECHO_MIN_CHARS));
  return out;
}

/**
 * A render's reply of the current edition (decision render-reply), on directory storage: the current sqlite.md and
 * postgres.md keep the "Binding written:" confirmation and define no render contract.
 */
function checkCurrentReply(text: string, runPath: string, file: string, opts: SubagentOutputOptions): Finding[] {
  return checkRenderReply(text, runPath, {
    file,
    ...(opts.projectDir !== undefined ? { projectDir: opts.projectDir } : {}),
    ...(opts.expect?.node !== undefined ? { node: opts.expect.node } : {}),
    summaryMaxChars: opts.summaryMaxChars ?? SUMMARY_MAX_CHARS,
  });
}

/** One message being checked: where it is, what the VM expected, and the findings so far. */
interface MessageCheck {
  target: RunTarget;
  file: string;
  opts: SubagentOutputOptions;
  out: Finding[];
  at: (line: number) => { file: string; line: number };
}

/** The binding confirmation (session.md 7.1): present, the binding asked for, a short Summary, and the stored binding. */
async function checkBindingBlock(b: BindingBlock | undefined, c: MessageCheck): Promise<string | undefined> {
  const { opts, out, at } = c;
  if (!b) {
    out.push(
      finding(
        'message.binding-missing',
        'no "Binding written: NAME" line',
        at(1),
        'return the confirmation of session.md 7.1, not the output itself',
      ),
    );
    return undefined;
  }
  if (opts.expect?.binding !== undefined && b.name.value !== opts.expect.binding) {
    out.push(
      finding(
        'message.location-mismatch',
        `the VM asked for binding ${opts.expect.binding}, the message confirms ${b.name.value}`,
        at(b.name.line),
      ),
    );
  }
  const maxChars = opts.summaryMaxChars ?? SUMMARY_MAX_CHARS;
  if (!b.summary)
    out.push(
      finding(
        'message.summary-missing',
        `no "Summary:" for binding ${b.name.value}`,
        at(b.name.line),
        'add one or two sentences on what the binding holds',
      ),
    );
  else if ([...b.summary.value].length > maxChars) {
    out.push(
      finding(
        'message.summary-length',
        `the Summary has ${[...b.summary.value].length} characters (at most ${maxChars})`,
        at(b.summary.line),
        'one or two sentences: the VM tracks pointers, not values',
      ),
    );
  }
  const expect = {
    ...(opts.expect?.executionId !== undefined ? { executionId: opts.expect.executionId } : {}),
    ...(opts.expect?.kind !== undefined ? { kind: opts.expect.kind } : {}),
    thresholdBytes: opts.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes,
  };
  const checked = await guard(() => checkBinding(b, c.target, c.file, opts.pgQuery, expect), at(b.name.line));
  out.push(...checked.findings);
  return checked.value;
}

/** The memory block of a persistent agent (session.md 7.4), required when the VM resumed one. */
async function checkMemoryBlock(m: MemoryBlock | undefined, c: MessageCheck): Promise<void> {
  const { opts, out, at } = c;
  if (!m) {
    // The current sqlite.md and postgres.md name no reply for memory: only v0's session.md 7.4 requires the block.
    if (opts.expect?.agent !== undefined && c.target.edition !== 'current')
      out.push(
        finding(
          'message.segment-missing',
          `agent ${opts.expect.agent} was resumed but the message has no "Memory updated:" block`,
          at(1),
          'add Memory updated / Location / Segment (session.md 7.4)',
        ),
      );
    return;
  }
  if (opts.expect?.agent !== undefined && m.agent.value !== opts.expect.agent) {
    out.push(
      finding(
        'message.location-mismatch',
        `the VM resumed agent ${opts.expect.agent}, the message updates ${m.agent.value}`,
        at(m.agent.line),
      ),
    );
  }
  const checked = await guard(
    async () => ({ findings: await checkMemory(m, c.target, c.file, opts.pgQuery, opts.expect?.segment) }),
    at(m.agent.line),
  );
  out.push(...checked.findings);
}

/** The message carries the value, or a long text, instead of a pointer (session.md 7.2, 7.3). */
function pointerFindings(
  text: string,
  extra: number[],
  value: string | undefined,
  file: string,
  echoMin: number,
): Finding[] {
  const out: Finding[] = [];
  const v = value?.trim() ?? '';
  if (v.length > echoMin && (text.includes(v) || text.includes(v.slice(0, echoMin)))) {
    out.push(
      finding(
        'message.value-echo',
        `the message repeats the binding value (${v.length} characters)`,
        { file },
        'return the Location and a short Summary; the VM passes the pointer on',
      ),
    );
  }
  if (extra.length > EXTRA_TEXT_MAX_LINES) {
    out.push(
      finding(
        'message.not-pointer',
        `${extra.length} lines besides the confirmation: this looks like the full output`,
        { file, line: extra[0]! },
        'write the output to the binding location and return only the confirmation',
      ),
    );
  } else if (extra.length) {
    out.push(
      finding(
        'message.extra-text',
        `${extra.length} line(s) besides the confirmation and signals (the VM ignores them)`,
        { file, line: extra[0]! },
      ),
    );
  }
  return out;
}

/** State that cannot be read (a torn database, a permission error) is a finding, never a crash. */
async function guard<T extends { findings: Finding[] }>(
  fn: () => Promise<T>,
  where: { file: string; line: number },
): Promise<T | { findings: Finding[]; value?: undefined }> {
  try {
    return await fn();
  } catch (err) {
    return {
      findings: [
        finding(
          'binding.missing',
          `the state could not be read: ${(err as Error).message}`,
          where,
          'check the run directory or database is the one the VM gave',
        ),
      ],
    };
  }
}
