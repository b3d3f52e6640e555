import type { NarrationEvent } from './narration-event.ts';
import { formatParams } from './trailing-params.ts';
import { encodeText, encodeToken } from './value-codec.ts';

const PAD = '   ';
const STATUS_WORD = {
  running: 'Running',
  completed: 'Complete',
  failed: 'Failed',
  interrupted: 'Interrupted',
  end: 'Complete',
} as const;
const SIMPLE_KEY = /^[A-Za-z_][\w-]*$/;

const scope = (id: number | null | undefined): [string, string | number | undefined] => [
  'execution_id',
  id === null ? 'root' : id,
];

/**
 * Renders one event in the seed's verbose narration (in-context.md "Narration Patterns by Construct"). Lines end
 * in `\n`; `depth` indents nested frames three spaces a level, as the seed's block example does.
 */
export function writeVerbose(e: NarrationEvent, depth = 0): string {
  const ind = PAD.repeat(Math.max(0, depth));
  const lines = verboseLines(e);
  return lines.map((l, i) => (i === 0 ? ind + l : ind + PAD + l)).join('\n') + '\n';
}

type EventOf<K extends NarrationEvent['kind']> = Extract<NarrationEvent, { kind: K }>;

function verboseLines(e: NarrationEvent): string[] {
  return (VERBOSE[e.kind] as (e: NarrationEvent) => string[])(e);
}

/**
 * A run start's lines: `head` with the run and its start time, the state mode, then the program and its path under
 * `noun` (v0's `Program`; the current edition's `Root`, write-current.ts).
 */
export function runStartLines(e: EventOf<'run-start'>, head: string, noun: string): string[] {
  return [
    `${head}${formatParams([
      ['run', e.runId],
      ['started', e.startedAt],
    ])}`,
    'State mode: in-context',
    ...(e.program !== undefined ? [`${noun}: ${encodeText(e.program)}`] : []),
    ...(e.programPath !== undefined ? [`${noun} path: ${encodeText(e.programPath)}`] : []),
  ];
}

/** Each event kind's lines: the first the marker line, the rest indented under it. */
const VERBOSE: { [K in NarrationEvent['kind']]: (e: EventOf<K>) => string[] } = {
  'run-start': (e) => runStartLines(e, '[Program] Program Start', 'Program'),
  'run-switch': (e) => [`[Program] Continuing run${formatParams([['run', e.runId]])}`],
  'run-status': (e) => [`[Program] Program ${STATUS_WORD[e.status]}${formatParams([['run', e.runId]])}`],
  statement: (e) => {
    const n = e.index === undefined ? 'Statement' : `Statement ${e.index}`;
    const params = formatParams([scope(e.executionId), ['error', e.error], ['binds', e.binds]]);
    const text = encodeText(e.text);
    if (e.status === 'executing') return [`[Position] ${n}: ${text}${params}`];
    if (e.status === 'completed') return [`[Success] ${n} complete: ${text}${params}`];
    if (e.status === 'failed') return [`[Warning] ${n} failed: ${text}${params}`];
    return [`[Flow] ${n} skipped: ${text}${params}`];
  },
  'frame-enter': (e) => [
    `[Frame+] Entering block: ${encodeToken(e.block)}${formatParams([
      ['execution_id', e.executionId],
      ['depth', e.depth],
    ])}`,
    ...(e.args !== undefined ? [`Arguments: ${formatArgs(e.args)}`] : []),
    ...(e.parent != null ? [`Parent: execution_id ${e.parent}`] : []),
  ],
  'frame-exit': (e) => {
    const name = e.block === undefined ? '' : `: ${encodeToken(e.block)}`;
    const params = formatParams([
      ['execution_id', e.executionId],
      ['status', e.status === 'failed' ? 'failed' : undefined],
    ]);
    return [`[Frame-] Exiting block${name}${params}`];
  },
  callstack: (e) => [
    `[CallStack] Current stack (depth: ${e.depth ?? e.frames.length}):`,
    ...e.frames.map(
      (f) =>
        `execution_id: ${f.executionId} | block: ${encodeToken(f.block)} | depth: ${f.depth} | status: ${f.status}`,
    ),
  ],
  'parallel-start': (e) => {
    const n = e.branchCount ?? e.branches.length;
    const params = formatParams(
      [
        ['strategy', e.strategy],
        ['count', e.count],
        ['on-fail', e.onFail],
        ['parallel', e.id],
      ],
      [`${n} branches`],
    );
    return [`[Parallel] Entering parallel block${params}`, ...e.branches.map((b) => `- ${encodeToken(b)}: pending`)];
  },
  branch: (e) => [`[Parallel] Branch ${encodeToken(e.branch)}: ${e.status}${formatParams([['parallel', e.id]])}`],
  'parallel-join': (e) => [
    `[Parallel] Parallel complete:${formatParams([['parallel', e.id]])}`,
    ...e.branches.map((b) =>
      b.value !== undefined
        ? `- ${encodeToken(b.name)} = ${encodeText(b.value)}`
        : `- ${encodeToken(b.name)}: ${b.status ?? 'completed'}`,
    ),
  ],
  'loop-start': (e) => {
    const cond = e.condition === undefined ? '' : ` until ${encodeText(e.condition)}`;
    const params = formatParams([
      ['max', e.max],
      ['loop', e.id],
    ]);
    return [`[Loop] Starting loop${cond}${params}`];
  },
  'loop-iteration': (e) => {
    const of = e.max === undefined ? '' : ` of max ${e.max}`;
    return [`[Loop] Iteration ${e.iteration}${of}${formatParams([['loop', e.id]])}`];
  },
  'loop-exit': (e) => {
    const why =
      e.reason === 'condition' ? 'condition satisfied' : e.reason === 'max' ? 'max iterations reached' : 'break';
    const at = e.iteration === undefined ? '' : ` at iteration ${e.iteration}`;
    return [`[Loop] Loop exited: ${why}${at}${formatParams([['loop', e.id]])}`];
  },
  retry: (e) => [
    `[Warning] Retry ${e.attempt} of ${e.max}${formatParams([
      ['statement', e.index],
      ['error', e.error],
    ])}`,
  ],
  error: (e) => [`[Warning] Error${e.index === undefined ? '' : ` at statement ${e.index}`}: ${encodeText(e.message)}`],
  anon: (e) => [`[Binding] Allocated anonymous name: ${encodeToken(e.name)}`],
  bind: (e) => bindLines(e),
  read: (e) => [`[Binding] Reading ${e.names.map(encodeToken).join(', ')}${formatParams([scope(e.executionId)])}`],
  memory: (e) => [`[Memory] Agent ${encodeToken(e.agent)} memory: ${encodeText(e.memory)}`],
  segment: (e) => [
    `[Segment] Agent ${encodeToken(e.agent)} segment ${e.number}${formatParams([['timestamp', e.timestamp]])}`,
    `Prompt: ${encodeText(e.prompt)}`,
    `Summary: ${encodeText(e.summary)}`,
  ],
  try: (e) =>
    e.phase === 'try'
      ? ['[Try] Entering try block']
      : e.phase === 'catch'
        ? [`[Try] Executing catch block${formatParams([['error', e.error]])}`]
        : ['[Try] Executing finally block'],
  call: (e) => {
    const result = e.result === undefined ? '' : ` → ${e.result}`;
    return [
      `[Import] Invoking: ${e.target}(${e.args})${result}${e.ok ? '' : formatParams([['error', e.error ?? 'failed']])}`,
    ];
  },
  'wm-version': (e) => [
    `[WorldModel] Version stored: ${encodeToken(e.node)} ${e.address}`,
    `Bytes: ${encodeText(e.bytes)}`,
  ],
  'wm-publish': (e) => [`[WorldModel] Published: ${encodeToken(e.node)} ${e.address}`],
  'wm-workspace': (e) => [`[WorldModel] Workspace: ${encodeToken(e.node)}`, `Bytes: ${encodeText(e.bytes)}`],
  envelope: (e) => [
    '[WorldModel] Envelope',
    `Compiled intent: ${encodeText(e.compiledIntentJson)}`,
    `Root source: ${encodeText(e.rootSource)}`,
    `Sources: ${encodeText(JSON.stringify(e.sources))}`,
  ],
  receipt: (e) => [`[Receipt] ${encodeToken(e.node)}: ${encodeText(e.receipt)}`],
  note: (e) => [`[${e.marker}] ${e.text}`],
};

function bindLines(e: EventOf<'bind'>): string[] {
  const value = e.value === undefined ? '<result>' : encodeText(e.value);
  const name = encodeToken(e.name);
  // Root bindings carry no execution_id, as in the seed; `root` says so outright when a frame is open.
  const id = scope(e.executionId);
  let head: string;
  switch (e.bindingKind) {
    case 'input':
      head = `[Input] input ${name} = ${value}${formatParams([id], ['from caller'])}`;
      break;
    case 'output':
      head = `[Output] output ${name} = ${value}${formatParams([id], ['will return to caller'])}`;
      break;
    case 'let':
      head = `[Binding] let ${name} = ${value}${formatParams([id], ['mutable'])}`;
      break;
    case 'const':
      head = `[Binding] const ${name} = ${value}${formatParams([id], ['immutable'])}`;
      break;
    default:
      head = `[Binding] ${name} = ${value}${formatParams([id])}`;
  }
  return e.source === undefined ? [head] : [head, `Source: ${encodeText(e.source)}`];
}

/** `chunk="data", depth="5"` as the seed writes arguments; a JSON object when a key is not a plain word. */
export function formatArgs(args: Record<string, string>): string {
  const keys = Object.keys(args);
  if (keys.length === 0 || !keys.every((k) => SIMPLE_KEY.test(k))) return jsonObject(args);
  return keys.map((k) => `${k}=${encodeText(args[k]!)}`).join(', ');
}

function jsonObject(args: Record<string, string>): string {
  return (
    '{' +
    Object.keys(args)
      .map((k) => `${encodeText(k)}:${encodeText(args[k]!)}`)
      .join(',') +
    '}'
  );
}
