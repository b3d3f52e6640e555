import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { formatError, ProseError, toProseError } from '../../core/errors.ts';
import { BINDING_KINDS, type BindingKind } from '../../core/model.ts';
import { checkName } from '../../core/names.ts';
import { parseEdition } from '../../core/editions.ts';
import {
  buildInstructions,
  buildRenderInstructions,
  runEdition,
  nextSegmentNumber,
  prepareAgentDb,
  resolveRunTarget,
  sqliteProgram,
} from '../../session/index.ts';
import type { SubagentStorageKind } from '../../core/backend.ts';
import { parseOptions, type OptionSpec } from '../args.ts';
import { EXIT, type CliIo, type Command } from '../io.ts';

const HELP = `Usage: prose-state instructions --backend filesystem|sqlite|postgres --run DIR_OR_ID [--edition v0|current]
         v0:      (--binding NAME [--kind let] [--execution-id N] [--source TEXT])
                  [--agent NAME --scope execution|project|user [--prompt TEXT] [--segment N]]
                  [--project DIR] [--home DIR] [--sqlite3 auto|sqlite3|prose-state] [--attachment-threshold BYTES]
         current: --node NAME --output NAME... [--error NAME...] [--input NAME=PATH...] [--delegate NAME...]
                  [--project OPENPROSE_ROOT]         (filesystem; sqlite and postgres take the v0 options)

Prints the exact instructions a VM gives a subagent: where to write its binding (and, for a persistent agent, its
memory and next segment), the format or the statement with the VM's values bound, and the confirmation to return
(docs/session-protocol.md). A persistent agent writes both: pass --binding and --agent together. For sqlite it
first creates a missing project or user agents.db, the VM's part in sqlite.md.

  --edition E       v0 (session.md's binding confirmation) or current (a render: workspace/{node}/ and the reply
                    of prose.md "4b. Spawn Session"); default: the edition of the run directory given (runs/{id}/
                    with vm.log.md is current), else v0. The first line printed names the edition. The current
                    texts define a render only for directory storage: --backend sqlite or postgres with
                    --edition current gives the binding confirmation of the current sqlite.md and postgres.md
                    (--binding, --agent as for v0; <openprose-root>/runs/{id}/state.db, bindings.binding), and
                    --node there is refused.
  --run DIR_OR_ID   the run directory (.prose/runs/{id}, or <openprose-root>/runs/{id} in the current edition) or
                    run id (relative to --project)
  --node NAME       current: the node rendered; --output NAME (repeatable) its declared outputs, --error NAME its
                    declared errors, --input NAME=PATH its inputs, --delegate NAME the nodes it may delegate to
  --sqlite3 WHICH   the program the sqlite commands call: auto (sqlite3 when it is on PATH, else
                    "prose-state sqlite3"), or force one                                    [PROSE_STATE_SQLITE3]
  --segment N       the segment number to hand out (default: one past the newest stored; required for postgres)
  --attachment-threshold BYTES
                    above this many UTF-8 bytes an output is a large output, written to attachments/ (sqlite.md
                    "Large Outputs"; default: the pinned decision attachmentThresholdBytes)
`;

const OPTIONS = {
  backend: { type: 'string' },
  run: { type: 'string' },
  binding: { type: 'string' },
  kind: { type: 'string' },
  'execution-id': { type: 'string' },
  source: { type: 'string' },
  agent: { type: 'string' },
  scope: { type: 'string' },
  prompt: { type: 'string' },
  segment: { type: 'string' },
  project: { type: 'string' },
  home: { type: 'string', env: 'PROSE_STATE_HOME' },
  sqlite3: { type: 'string', env: 'PROSE_STATE_SQLITE3' },
  'attachment-threshold': { type: 'string' },
  edition: { type: 'string' },
  node: { type: 'string' },
  output: { type: 'string', multiple: true },
  error: { type: 'string', multiple: true },
  input: { type: 'string', multiple: true },
  delegate: { type: 'string', multiple: true },
} satisfies OptionSpec;

export const instructionsCommand: Command = {
  help: HELP,
  async run(argv: string[], io: CliIo): Promise<number> {
    try {
      io.stdout.write(await instructionsText(argv, io));
      return EXIT.ok;
    } catch (err) {
      const e = toProseError(err, 'E_USAGE');
      io.stderr.write(`prose-state instructions: ${formatError(e)}\n`);
      return e.code === 'E_USAGE' ? EXIT.usage : EXIT.harness;
    }
  },
};

const STORAGE_OF_BACKEND = new Map<string, SubagentStorageKind>([
  ['filesystem', 'directory'],
  ['sqlite', 'sqlite'],
  ['postgres', 'postgres'],
]);

const usage = (msg: string, hint?: string) => new ProseError('E_USAGE', msg, hint ? { hint } : {});

export async function instructionsText(argv: string[], io: CliIo): Promise<string> {
  const { values: v, positionals } = parseOptions(argv, OPTIONS, io.env);
  if (positionals.length) throw usage(`unexpected argument ${JSON.stringify(positionals[0])}`, 'see --help');
  // The command takes a backend's name; the session layer works by the storage kind that backend keeps.
  const backend = STORAGE_OF_BACKEND.get(v.backend as string);
  if (backend === undefined) throw usage('--backend must be filesystem, sqlite or postgres');
  if (typeof v.run !== 'string') throw usage('--run DIR_OR_ID is required');
  const runArg = resolve(io.cwd, v.run);
  const edition =
    typeof v.edition === 'string'
      ? parseEdition(v.edition, '--edition')
      : existsSync(runArg)
        ? runEdition(runArg)
        : 'v0';
  // A render on directory storage; SQL storage keeps the binding confirmation (decision current-sql-subagent), and a
  // render asked of it (--node) is refused by the render's builder.
  if (edition === 'current' && (backend === 'directory' || v.node !== undefined)) return renderText(v, backend, io);
  for (const k of RENDER_ONLY)
    if (v[k] !== undefined) throw usage(`--${k} belongs to a render (--edition current), not the v0 instructions`);
  if (typeof v.binding !== 'string' && typeof v.agent !== 'string')
    throw usage('give --binding NAME, --agent NAME, or both');
  const projectDir = resolve(io.cwd, typeof v.project === 'string' ? v.project : '.');
  const homeDir = typeof v.home === 'string' ? resolve(io.cwd, v.home) : (io.env.HOME ?? projectDir);
  const target = resolveRunTarget(
    typeof v.run === 'string' && existsSync(resolve(io.cwd, v.run)) ? resolve(io.cwd, v.run) : v.run,
    { projectDir, homeDir, storage: backend, edition },
  );
  if (backend !== 'postgres' && !existsSync(target.runDir)) throw usage(`no run directory ${target.runDir}`);
  const binding = typeof v.binding === 'string' ? bindingOf(v, v.binding) : undefined;
  const agent = typeof v.agent === 'string' ? await agentOf(v, v.agent, backend, target) : undefined;
  const threshold =
    v['attachment-threshold'] === undefined
      ? {}
      : { attachmentThresholdBytes: positive('attachment-threshold', v['attachment-threshold']) };
  return `${EDITION_LINE[edition](backend)}\n\n${buildInstructions({
    storage: backend,
    target,
    ...(binding ? { binding } : {}),
    ...(agent ? { agent } : {}),
    sqlite3: sqliteProgram(String(v.sqlite3 ?? 'auto'), io.env),
    ...threshold,
  })}`;
}

const RENDER_ONLY = ['node', 'output', 'error', 'input', 'delegate'] as const;

/** The first line printed: which texts the binding instructions follow. */
const EDITION_LINE = {
  v0: () => 'Edition: v0 (session.md 5-7 of the January 2026 texts; the subagent writes its binding)',
  current: (storage: SubagentStorageKind) =>
    `Edition: current (${storage === 'postgres' ? 'postgres' : 'sqlite'}.md "Responsibility Separation" and "From ` +
    'Spawned Sessions"; the subagent writes its binding into <openprose-root>)',
} as const;

/** The current edition: the prompt a VM gives a render (prose.md "4b. Spawn Session"), for directory storage only. */
function renderText(v: Values, storage: SubagentStorageKind, io: CliIo): string {
  if (typeof v.node !== 'string') throw usage('--node NAME is required with --edition current');
  const outputs = list(v.output);
  if (!outputs.length) throw usage('give each declared output with --output NAME (prose.md "Required Outputs")');
  const run = resolve(io.cwd, v.run as string);
  const isDir = existsSync(run);
  const projectDir =
    typeof v.project === 'string' ? resolve(io.cwd, v.project) : isDir ? resolve(run, '..', '..') : io.cwd;
  const runId = isDir ? basename(run) : (v.run as string);
  if (storage === 'directory' && !existsSync(join(projectDir, 'runs', runId)))
    throw usage(`no run directory ${join(projectDir, 'runs', runId)}`, 'give --run <openprose-root>/runs/{id}');
  const inputs = list(v.input).map((i) => {
    const eq = i.indexOf('=');
    if (eq <= 0) throw usage(`--input must be NAME=PATH, got ${JSON.stringify(i)}`);
    return { name: i.slice(0, eq), path: i.slice(eq + 1) };
  });
  // Each name becomes a path segment of the workspace: the same rule as a binding's file name.
  const name = (field: string, n: string) => checkName('binding', n, field);
  return buildRenderInstructions({
    storage,
    projectDir,
    runId,
    node: name('node', v.node),
    outputs: outputs.map((o) => name('output', o)),
    errors: list(v.error),
    inputs,
    delegates: list(v.delegate).map((d) => name('delegate', d)),
  });
}

const list = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : typeof x === 'string' ? [x] : []);

type Values = Record<string, string | boolean | string[] | undefined>;

function positive(name: string, s: unknown): number {
  if (typeof s !== 'string' || !/^[1-9]\d*$/.test(s))
    throw usage(`--${name} must be a positive integer, got ${JSON.stringify(s)}`);
  return Number(s);
}

/** --binding NAME with its --kind, --execution-id and --source. */
function bindingOf(v: Values, name: string) {
  const kind = (v.kind ?? 'let') as BindingKind;
  if (!BINDING_KINDS.includes(kind)) throw usage(`--kind must be one of ${BINDING_KINDS.join(', ')}`);
  return {
    name: checkName('binding', name, 'binding'),
    kind,
    executionId: v['execution-id'] === undefined ? null : positive('execution-id', v['execution-id']),
    source: typeof v.source === 'string' ? v.source : '',
  };
}

/** --agent NAME with its --scope, --segment (or the next one stored) and --prompt; for sqlite its agents.db made. */
async function agentOf(
  v: Values,
  name: string,
  backend: SubagentStorageKind,
  target: ReturnType<typeof resolveRunTarget>,
) {
  const scope = v.scope;
  if (scope !== 'execution' && scope !== 'project' && scope !== 'user')
    throw usage('--scope must be execution, project or user');
  if (v.segment === undefined && backend === 'postgres')
    throw usage('--segment N is required for postgres (the VM reads the newest number)');
  const segment =
    v.segment !== undefined ? positive('segment', v.segment) : await nextSegmentNumber(backend, target, name, scope);
  const agent = {
    name: checkName('agent', name, 'agent'),
    scope: scope as 'execution',
    segment,
    prompt: typeof v.prompt === 'string' ? v.prompt : '{the prompt for this session}',
  };
  // The VM's part of sqlite.md: a project or user agents.db exists before the subagent writes to it.
  if (backend === 'sqlite') await prepareAgentDb(target, scope);
  return agent;
}
