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

function verboseLines(e: NarrationEvent): string[] {
  switch (e.kind) {
    case 'run-start': {
      const out = [
        `[Program] Program Start${formatParams([
          ['run', e.runId],
          ['started', e.startedAt],
        ])}`,
        'State mode: in-context',
      ];
      if (e.program !== undefined) out.push(`Program: ${encodeText(e.program)}`);
      if (e.programPath !== undefined) out.push(`Program path: ${encodeText(e.programPath)}`);
      return out;
    }
    case 'run-switch':
      return [`[Program] Continuing run${formatParams([['run', e.runId]])}`];
    case 'run-status':
      return [`[Program] Program ${STATUS_WORD[e.status]}${formatParams([['run', e.runId]])}`];
    case 'statement': {
      const n = e.index === undefined ? 'Statement' : `Statement ${e.index}`;
      const params = formatParams([scope(e.executionId), ['error', e.error], ['binds', e.binds]]);
      const text = encodeText(e.text);
      if (e.status === 'executing') return [`[Position] ${n}: ${text}${params}`];
      if (e.status === 'completed') return [`[Success] ${n} complete: ${text}${params}`];
      if (e.status === 'failed') return [`[Warning] ${n} failed: ${text}${params}`];
      return [`[Flow] ${n} skipped: ${text}${params}`];
    }
    case 'frame-enter': {
      const out = [
        `[Frame+] Entering block: ${encodeToken(e.block)}${formatParams([
          ['execution_id', e.executionId],
          ['depth', e.depth],
        ])}`,
      ];
      if (e.args !== undefined) out.push(`Arguments: ${formatArgs(e.args)}`);
      if (e.parent != null) out.push(`Parent: execution_id ${e.parent}`);
      return out;
    }
    case 'frame-exit': {
      const name = e.block === undefined ? '' : `: ${encodeToken(e.block)}`;
      return [
        `[Frame-] Exiting block${name}${formatParams([
          ['execution_id', e.executionId],
          ['status', e.status === 'failed' ? 'failed' : undefined],
        ])}`,
      ];
    }
    case 'callstack':
      return [
        `[CallStack] Current stack (depth: ${e.depth ?? e.frames.length}):`,
        ...e.frames.map(
          (f) =>
            `execution_id: ${f.executionId} | block: ${encodeToken(f.block)} | depth: ${f.depth} | status: ${f.status}`,
        ),
      ];
    case 'parallel-start': {
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
    }
    case 'branch':
      return [`[Parallel] Branch ${encodeToken(e.branch)}: ${e.status}${formatParams([['parallel', e.id]])}`];
    case 'parallel-join':
      return [
        `[Parallel] Parallel complete:${formatParams([['parallel', e.id]])}`,
        ...e.branches.map((b) =>
          b.value !== undefined
            ? `- ${encodeToken(b.name)} = ${encodeText(b.value)}`
            : `- ${encodeToken(b.name)}: ${b.status ?? 'completed'}`,
        ),
      ];
    case 'loop-start': {
      const cond = e.condition === undefined ? '' : ` until ${encodeText(e.condition)}`;
      return [
        `[Loop] Starting loop${cond}${formatParams([
          ['max', e.max],
          ['loop', e.id],
        ])}`,
      ];
    }
    case 'loop-iteration':
      return [
        `[Loop] Iteration ${e.iteration}${e.max === undefined ? '' : ` of max ${e.max}`}${formatParams([['loop', e.id]])}`,
      ];
    case 'loop-exit': {
      const why =
        e.reason === 'condition' ? 'condition satisfied' : e.reason === 'max' ? 'max iterations reached' : 'break';
      const at = e.iteration === undefined ? '' : ` at iteration ${e.iteration}`;
      return [`[Loop] Loop exited: ${why}${at}${formatParams([['loop', e.id]])}`];
    }
    case 'retry':
      return [
        `[Warning] Retry ${e.attempt} of ${e.max}${formatParams([
          ['statement', e.index],
          ['error', e.error],
        ])}`,
      ];
    case 'error':
      return [`[Warning] Error${e.index === undefined ? '' : ` at statement ${e.index}`}: ${encodeText(e.message)}`];
    case 'anon':
      return [`[Binding] Allocated anonymous name: ${encodeToken(e.name)}`];
    case 'bind':
      return bindLines(e);
    case 'read':
      return [`[Binding] Reading ${e.names.map(encodeToken).join(', ')}${formatParams([scope(e.executionId)])}`];
    case 'memory':
      return [`[Memory] Agent ${encodeToken(e.agent)} memory: ${encodeText(e.memory)}`];
    case 'segment':
      return [
        `[Segment] Agent ${encodeToken(e.agent)} segment ${e.number}${formatParams([['timestamp', e.timestamp]])}`,
        `Prompt: ${encodeText(e.prompt)}`,
        `Summary: ${encodeText(e.summary)}`,
      ];
    case 'try':
      if (e.phase === 'try') return ['[Try] Entering try block'];
      if (e.phase === 'catch') return [`[Try] Executing catch block${formatParams([['error', e.error]])}`];
      return ['[Try] Executing finally block'];
    case 'call':
      return [
        `[Import] Invoking: ${e.target}(${e.args})${e.result === undefined ? '' : ` → ${e.result}`}${e.ok ? '' : formatParams([['error', e.error ?? 'failed']])}`,
      ];
    case 'wm-version':
      return [`[WorldModel] Version stored: ${encodeToken(e.node)} ${e.address}`, `Bytes: ${encodeText(e.bytes)}`];
    case 'wm-publish':
      return [`[WorldModel] Published: ${encodeToken(e.node)} ${e.address}`];
    case 'wm-workspace':
      return [`[WorldModel] Workspace: ${encodeToken(e.node)}`, `Bytes: ${encodeText(e.bytes)}`];
    case 'envelope':
      return [
        '[WorldModel] Envelope',
        `Compiled intent: ${encodeText(e.compiledIntentJson)}`,
        `Root source: ${encodeText(e.rootSource)}`,
        `Sources: ${encodeText(JSON.stringify(e.sources))}`,
      ];
    case 'receipt':
      return [`[Receipt] ${encodeToken(e.node)}: ${encodeText(e.receipt)}`];
    case 'note':
      return [`[${e.marker}] ${e.text}`];
  }
}

type BindEvent = Extract<NarrationEvent, { kind: 'bind' }>;

function bindLines(e: BindEvent): string[] {
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
