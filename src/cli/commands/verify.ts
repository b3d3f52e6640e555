import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatError, ProseError, toProseError } from '../../core/errors.ts';
import type { Finding } from '../../verify/finding.ts';
import { parseEdition, type Edition } from '../../core/editions.ts';
import { describeVerdict, type EditionVerdict } from '../../verify/edition/edition-verdict.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../verify/kit/tree-rules.ts';
import { verifyPath, type VerifyPathOptions, type VerifyResult } from '../../verify/registry.ts';
import { checkSubagentOutput, runEdition } from '../../session/index.ts';
import { parseOptions, type OptionSpec } from '../args.ts';
import { EXIT, type CliIo, type Command } from '../io.ts';
import { POSTGRES_TARGET, shownTarget, verifyPostgres } from './verify-postgres.ts';
import { runRebuild } from './verify-rebuild.ts';

const HELP = `Usage: prose-state verify PATH [--format text|json] [--home DIR] [--threshold BYTES] [--kind KIND]
                           [--edition v0|current] [--since OLD]
       prose-state verify postgres:URL|postgres:env [--edition v0|current] [--format text|json]
       prose-state verify --rebuild-projections STATE_DB|postgres:URL|postgres:env [--write] [--format text|json]

Checks run state an OpenProse VM already wrote against the spec of its edition (docs/editions.md). The edition is
read from the tree: runs/{id}/vm.log.md is current, .prose/ and state.md are v0; a run holding both, or neither,
is refused until --edition names one. PATH is recognised as one of:
  run-dir      a v0 run directory, .prose/runs/{id}/ (state.md or state.db), imports checked recursively
  prose-dir    a v0 .prose/ directory (or a project holding one): every run, project agents, agents.db
  current-run  a current run, <openprose-root>/runs/{id}/ (vm.log.md), or an <openprose-root>: every run and the
               durable state/
  current-sql-run  a current SQLite run, <openprose-root>/runs/{id}/ (state.db beside root.prose.md)
  state-db     a state.db or agents.db SQLite file (judged by the edition its columns name)
  reactor      a Reactor state directory (receipts.json + world-models/; no edition)
  transcript   an in-context narration transcript (either edition's dialect)
  postgres     postgres:URL or postgres:env (the URL from OPENPROSE_POSTGRES_URL in the edition's env file, v0
               .prose/.env, current .env, both without --edition; then the shell's OPENPROSE_POSTGRES_URL, then
               DATABASE_URL): schema openprose of either edition, read in a READ ONLY transaction that is rolled
               back; the URL is never printed

Options:
  --edition E        judge PATH by edition E (v0 or current) instead of the one its files name
  --since OLD        OLD is an earlier copy of the same current run or root: a line of vm.log.md or a receipt
                     ledger that OLD holds and PATH changed or lost is a finding (appended lines are fine)
  --subagent-output FILE  check a subagent's returned message (and the memory/segment it names) against the run at PATH;
                     in a current-edition run (or with --edition current) a render's reply and its workspace files
  --format json      print {kind, path, edition, findings, counts} instead of lines
  --home DIR         the home directory standing in for ~ (user-scope agents in DIR/.prose/)   [PROSE_STATE_HOME]
  --threshold BYTES  attachment threshold in UTF-8 bytes (default 102400)                      [PROSE_STATE_THRESHOLD]
  --kind KIND        use this verifier instead of detecting one
  --rebuild-projections  print what rebuilding the projection tables of a current-edition state.db or schema from
                     the receipt ledger would write (world_model_published; bindings is not derivable); changes nothing
  --write            with --rebuild-projections: apply that plan in one transaction (refused while another writer
                     holds a state.db); no canonical row is touched
  --max-file-bytes N  files over N bytes are not read (tree.too-large; default 67108864)  [PROSE_STATE_MAX_FILE_BYTES]
  -h, --help         this text

Each finding prints as "file:line: severity rule: message" and a hint; docs/verify-rules.md lists the rules. The
line before the summary names the edition judged and whether it was detected or given.
Exit codes: 0 no error finding, 1 an error finding, 2 usage (unknown option, PATH missing), 3 no verifier
recognises PATH, its edition cannot be told (or verifying failed).
`;

/** Options as data, so another verifier's option (--subagent-output FILE, say) is one more entry. */
export const VERIFY_OPTIONS = {
  format: { type: 'string' },
  home: { type: 'string', env: 'PROSE_STATE_HOME' },
  threshold: { type: 'string', env: 'PROSE_STATE_THRESHOLD' },
  kind: { type: 'string' },
  edition: { type: 'string' },
  since: { type: 'string' },
  'subagent-output': { type: 'string' },
  'max-file-bytes': { type: 'string', env: 'PROSE_STATE_MAX_FILE_BYTES' },
  'rebuild-projections': { type: 'boolean' },
  write: { type: 'boolean' },
} satisfies OptionSpec;

/** Which reply --subagent-output read: v0's confirmation, or (current) a render's reply (docs/session-protocol.md). */
const SUBAGENT_EDITION = (given: Edition | undefined, used: Edition): EditionVerdict => ({
  edition: used,
  source: given === undefined ? 'detected' : 'given',
  evidence:
    given !== undefined
      ? `--edition ${given}`
      : used === 'current'
        ? 'the run is <openprose-root>/runs/{id}/: a render reply'
        : 'the run is not a current-edition run: the v0 reply',
});

export interface VerifyArgs extends VerifyPathOptions {
  path: string;
  format: 'text' | 'json';
  /** A subagent's returned text, checked against the run at `path` (docs/session-protocol.md). */
  subagentOutput?: string;
  /** --rebuild-projections, and whether to --write the plan (verify-rebuild.ts). */
  rebuild?: { write: boolean };
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
    if (args.rebuild) return runRebuild({ ...args, write: args.rebuild.write }, io);
    const abs = resolve(io.cwd, args.path);
    try {
      const opts = {
        ...(args.homeDir !== undefined ? { homeDir: args.homeDir } : {}),
        ...(args.attachmentThresholdBytes !== undefined
          ? { attachmentThresholdBytes: args.attachmentThresholdBytes }
          : {}),
        ...(args.maxFileBytes !== undefined ? { maxFileBytes: args.maxFileBytes } : {}),
      };
      let result: VerifyResult;
      if (POSTGRES_TARGET.test(args.path)) {
        result = await verifyPostgres(args.path, io, args.edition);
      } else if (args.subagentOutput !== undefined) {
        const edition = args.edition ?? runEdition(abs);
        const findings = await checkSubagentOutput(readFileSync(resolve(io.cwd, args.subagentOutput), 'utf8'), abs, {
          file: args.subagentOutput,
          edition,
          ...opts,
        });
        result = { kind: 'subagent-output', findings, edition: SUBAGENT_EDITION(args.edition, edition) };
      } else {
        try {
          result = await verifyPath(abs, {
            ...opts,
            ...(args.kind !== undefined ? { kind: args.kind } : {}),
            ...(args.edition !== undefined ? { edition: args.edition } : {}),
            ...(args.since !== undefined ? { since: resolve(io.cwd, args.since) } : {}),
          });
        } catch (err) {
          const e = toProseError(err, 'E_IO');
          if (e.code !== 'E_UNSUPPORTED') throw e;
          io.stderr.write(`prose-state verify: ${e.message.replace(abs, args.path)}\n  hint: ${e.hint}\n`);
          return EXIT.harness;
        }
      }
      const counts = writeResult(result, args, io);
      return counts.errors > 0 ? EXIT.failed : EXIT.ok;
    } catch (err) {
      const e = toProseError(err, 'E_IO');
      io.stderr.write(`prose-state verify: ${formatError(e)}\n`);
      return e.code === 'E_USAGE' ? EXIT.usage : EXIT.harness;
    }
  },
};

/** Prints the findings in the chosen format and returns their counts. */
function writeResult(result: VerifyResult, args: VerifyArgs, io: CliIo): { errors: number; warnings: number } {
  const { findings, kind, edition } = result;
  // A postgres URL is a secret: reports name the target without it.
  const shown = POSTGRES_TARGET.test(args.path) ? shownTarget(args.path) : args.path;
  const counts = {
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
  };
  if (args.format === 'json') {
    const maxFileBytes = args.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    io.stdout.write(`${JSON.stringify({ kind, path: shown, edition, maxFileBytes, findings, counts })}\n`);
    return counts;
  }
  if (args.maxFileBytes !== undefined)
    io.stdout.write(`verify: files over ${args.maxFileBytes} bytes are not read (--max-file-bytes)\n`);
  for (const f of findings) io.stdout.write(formatFinding(f, shown));
  io.stdout.write(`verify: ${describeVerdict(edition)}\n`);
  // Fixed wording ("1 errors") so scripts can match the summary line.
  io.stdout.write(`verify: ${counts.errors} errors, ${counts.warnings} warnings in ${kind} ${shown}\n`);
  return counts;
}

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
  if (!POSTGRES_TARGET.test(path) && !existsSync(resolve(io.cwd, path)))
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
  if (typeof values.edition === 'string') out.edition = parseEdition(values.edition, '--edition');
  if (typeof values.since === 'string') {
    if (!existsSync(resolve(io.cwd, values.since)))
      throw new ProseError('E_USAGE', `--since ${values.since} does not exist`, { location: { file: values.since } });
    out.since = values.since;
  }
  if (typeof values['subagent-output'] === 'string') {
    if (!existsSync(resolve(io.cwd, values['subagent-output'])))
      throw new ProseError('E_USAGE', `${values['subagent-output']} does not exist`, {
        location: { file: values['subagent-output'] },
      });
    out.subagentOutput = values['subagent-output'];
  }
  if (values.write && !values['rebuild-projections'])
    throw new ProseError('E_USAGE', '--write applies a rebuild plan: it needs --rebuild-projections', {
      hint: 'prose-state verify --rebuild-projections PATH --write',
    });
  if (values['rebuild-projections']) {
    const extra = (['kind', 'since', 'subagent-output', 'home', 'max-file-bytes'] as const).filter(
      (k) => values[k] !== undefined,
    );
    if (extra.length) throw new ProseError('E_USAGE', `--${extra[0]} does not apply to --rebuild-projections`);
    out.rebuild = { write: values.write === true };
  }
  if (POSTGRES_TARGET.test(path)) {
    const extra = (['kind', 'since', 'subagent-output'] as const).filter((k) => values[k] !== undefined);
    if (extra.length)
      throw new ProseError('E_USAGE', `--${extra[0]} does not apply to a postgres target`, {
        hint: 'prose-state verify postgres:URL|postgres:env [--edition v0|current] [--format text|json]',
      });
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
