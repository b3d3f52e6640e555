import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatError, ProseError, toProseError } from '../../core/errors.ts';
import type { Finding } from '../../verify/finding.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../verify/kit/tree-rules.ts';
import { knownKinds, pickVerifier, type VerifyPathOptions } from '../../verify/registry.ts';
import { checkSubagentOutput } from '../../session/index.ts';
import { parseOptions, type OptionSpec } from '../args.ts';
import { EXIT, type CliIo, type Command } from '../io.ts';

const HELP = `Usage: prose-state verify PATH [--format text|json] [--home DIR] [--threshold BYTES] [--kind KIND]

Checks run state an OpenProse VM already wrote against the spec. PATH is recognised as one of:
  run-dir     a run directory, .prose/runs/{id}/ (state.md or state.db), imports checked recursively
  prose-dir   a .prose/ directory (or a project holding one): every run, project agents, agents.db
  state-db    a state.db or agents.db SQLite file
  reactor     a Reactor state directory (receipts.json + world-models/)
  transcript  an in-context narration transcript

Options:
  --subagent-output FILE  check a subagent's returned message (and the memory/segment it names) against the run at PATH
  --format json      print {kind, path, findings, counts} instead of lines
  --home DIR         the home directory standing in for ~ (user-scope agents in DIR/.prose/)   [PROSE_STATE_HOME]
  --threshold BYTES  attachment threshold in UTF-8 bytes (default 102400)                      [PROSE_STATE_THRESHOLD]
  --kind KIND        use this verifier instead of detecting one
  --max-file-bytes N  files over N bytes are not read (tree.too-large; default 67108864)  [PROSE_STATE_MAX_FILE_BYTES]
  -h, --help         this text

Each finding prints as "file:line: severity rule: message" and a hint; docs/verify-rules.md lists the rules.
Exit codes: 0 no error finding, 1 an error finding, 2 usage (unknown option, PATH missing), 3 no verifier
recognises PATH (or verifying failed).
`;

/** Options as data, so another verifier's option (--subagent-output FILE, say) is one more entry. */
export const VERIFY_OPTIONS = {
  format: { type: 'string' },
  home: { type: 'string', env: 'PROSE_STATE_HOME' },
  threshold: { type: 'string', env: 'PROSE_STATE_THRESHOLD' },
  kind: { type: 'string' },
  'subagent-output': { type: 'string' },
  'max-file-bytes': { type: 'string', env: 'PROSE_STATE_MAX_FILE_BYTES' },
} satisfies OptionSpec;

export interface VerifyArgs extends VerifyPathOptions {
  path: string;
  format: 'text' | 'json';
  /** A subagent's returned text, checked against the run at `path` (docs/session-protocol.md). */
  subagentOutput?: string;
}

export const verifyCommand: Command = {
  help: HELP,
  async run(argv: string[], io: CliIo): Promise<number> {
    let args: VerifyArgs;
    try {
      args = parseVerifyArgs(argv, io);
    } catch (err) {
      io.stderr.write(`prose-state verify: ${formatError(toProseError(err, 'E_USAGE'))}\n`);
      return EXIT.usage;
    }
    const abs = resolve(io.cwd, args.path);
    try {
      const opts = {
        ...(args.homeDir !== undefined ? { homeDir: args.homeDir } : {}),
        ...(args.attachmentThresholdBytes !== undefined
          ? { attachmentThresholdBytes: args.attachmentThresholdBytes }
          : {}),
        ...(args.maxFileBytes !== undefined ? { maxFileBytes: args.maxFileBytes } : {}),
      };
      let verifier: { kind: string } | undefined;
      let findings: Finding[];
      if (args.subagentOutput !== undefined) {
        verifier = { kind: 'subagent-output' };
        findings = await checkSubagentOutput(readFileSync(resolve(io.cwd, args.subagentOutput), 'utf8'), abs, {
          file: args.subagentOutput,
          ...opts,
        });
      } else {
        const v = await pickVerifier(abs, args.kind);
        if (!v) {
          io.stderr.write(
            `prose-state verify: no verifier recognises ${args.path}\n  hint: known kinds: ${knownKinds()}; name one with --kind\n`,
          );
          return EXIT.harness;
        }
        verifier = v;
        findings = await v.verify(abs, opts);
      }
      const counts = {
        errors: findings.filter((f) => f.severity === 'error').length,
        warnings: findings.filter((f) => f.severity === 'warning').length,
      };
      if (args.format === 'json')
        io.stdout.write(
          `${JSON.stringify({ kind: verifier.kind, path: args.path, maxFileBytes: args.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, findings, counts })}\n`,
        );
      else {
        if (args.maxFileBytes !== undefined)
          io.stdout.write(`verify: files over ${args.maxFileBytes} bytes are not read (--max-file-bytes)\n`);
        for (const f of findings) io.stdout.write(formatFinding(f, args.path));
        // Fixed wording ("1 errors") so scripts can match the summary line.
        io.stdout.write(
          `verify: ${counts.errors} errors, ${counts.warnings} warnings in ${verifier.kind} ${args.path}\n`,
        );
      }
      return counts.errors > 0 ? EXIT.failed : EXIT.ok;
    } catch (err) {
      const e = toProseError(err, 'E_IO');
      io.stderr.write(`prose-state verify: ${formatError(e)}\n`);
      return e.code === 'E_USAGE' ? EXIT.usage : EXIT.harness;
    }
  },
};

export function parseVerifyArgs(argv: string[], io: CliIo): VerifyArgs {
  const { values, positionals } = parseOptions(argv, VERIFY_OPTIONS, io.env);
  if (positionals.length !== 1) {
    throw new ProseError(
      'E_USAGE',
      positionals.length === 0 ? 'verify needs a PATH' : `verify takes one PATH, got ${positionals.length}`,
      { hint: 'prose-state verify PATH' },
    );
  }
  const path = positionals[0]!;
  if (!existsSync(resolve(io.cwd, path)))
    throw new ProseError('E_USAGE', `${path} does not exist`, { location: { file: path } });
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new ProseError('E_USAGE', `--format must be text or json, got ${JSON.stringify(format)}`);
  const out: VerifyArgs = { path, format };
  if (typeof values.home === 'string') out.homeDir = resolve(io.cwd, values.home);
  if (typeof values.threshold === 'string') out.attachmentThresholdBytes = positiveBytes('threshold', values.threshold);
  if (typeof values['max-file-bytes'] === 'string')
    out.maxFileBytes = positiveBytes('max-file-bytes', values['max-file-bytes']);
  if (typeof values.kind === 'string') out.kind = values.kind;
  if (typeof values['subagent-output'] === 'string') {
    if (!existsSync(resolve(io.cwd, values['subagent-output'])))
      throw new ProseError('E_USAGE', `${values['subagent-output']} does not exist`, {
        location: { file: values['subagent-output'] },
      });
    out.subagentOutput = values['subagent-output'];
  }
  return out;
}

/** A byte count given to `--NAME`: a positive safe integer, else a usage error quoting it. */
function positiveBytes(name: string, given: string): number {
  if (!/^[1-9]\d*$/.test(given) || !Number.isSafeInteger(Number(given)))
    throw new ProseError('E_USAGE', `--${name} must be a positive integer of bytes, got ${JSON.stringify(given)}`);
  return Number(given);
}

/** `file:line: severity rule: message` and an indented hint; a table row reads `file table[row]`. */
export function formatFinding(f: Finding, root: string): string {
  let where = f.file ?? root;
  if (f.line !== undefined) where += `:${f.line}${f.column !== undefined ? `:${f.column}` : ''}`;
  if (f.table !== undefined) where += ` ${f.table}${f.row !== undefined ? `[${f.row}]` : ''}`;
  if (f.node !== undefined) where += ` node ${f.node}`;
  if (f.receipt !== undefined) where += ` receipt ${f.receipt}`;
  return `${where}: ${f.severity} ${f.rule}: ${f.message}\n${f.hint ? `  hint: ${f.hint}\n` : ''}`;
}
