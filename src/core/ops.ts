import type { Capability } from './capabilities.ts';
import type {
  AgentScope,
  BindingKind,
  ExecutionEvent,
  ExecutionId,
  FrameState,
  ResumeState,
  RunRef,
  RunStatus,
  Segment,
} from './model.ts';

/**
 * The one operation vocabulary. It is the TypeScript contract (`Backend.call`), the `op:` of a YAML step and the
 * `op` of a stdio request, so a new operation is added here once for all three.
 */
export interface OpArgs {
  createRun: { runId?: string; program: string; programPath?: string };
  getRun: { run: RunRef };
  setRunStatus: { run: RunRef; status: RunStatus };
  createImport: { run: RunRef; handle: string; slug: string; program: string };
  enterFrame: {
    run: RunRef;
    block: string;
    parent?: ExecutionId | null;
    maxDepth?: number;
    args?: Record<string, string>;
  };
  exitFrame: { run: RunRef; executionId: ExecutionId; status?: 'completed' | 'failed' };
  recordEvent: { run: RunRef; event: ExecutionEvent };
  allocateAnon: { run: RunRef };
  bind: {
    run: RunRef;
    name: string;
    kind: BindingKind;
    value: string;
    executionId?: ExecutionId | null;
    source?: string;
  };
  resolve: { run: RunRef; name: string; executionId?: ExecutionId | null };
  listBindings: { run: RunRef };
  writeMemory: { agent: string; scope: AgentScope; memory: string; run?: RunRef; path?: string };
  readMemory: { agent: string; scope: AgentScope; run?: RunRef; path?: string };
  appendSegment: {
    agent: string;
    scope: AgentScope;
    prompt: string;
    summary: string;
    timestamp?: string;
    run?: RunRef;
    path?: string;
  };
  listSegments: { agent: string; scope: AgentScope; run?: RunRef; path?: string };
  resume: { run: RunRef };
  writeEnvelope: {
    run: RunRef;
    compiledIntent: Record<string, unknown>;
    rootSource: string;
    sources?: Record<string, string>;
  };
  readEnvelope: { run: RunRef };
  commitWorldModel: {
    run: RunRef;
    node: string;
    files: Record<string, string>;
    contract: string;
    /** The node's declared facets (`####` under `### Maintains`): each also fingerprints `published/<facet>/`. */
    facets?: string[];
    wake?: { source: 'input' | 'self' | 'external'; refs: string[] };
    inputFingerprints?: string[];
    tokens?: { fresh: number; reused: number };
    provider?: string;
    model?: string;
    /** What moved, as the render was told (session "1.2"): the receipt's semantic_diff under decision semantic-diff's render-supplied reading. */
    semanticDiff?: Record<string, unknown>;
  };
  failRender: {
    run: RunRef;
    node: string;
    contract: string;
    reason: string;
    wake?: { source: 'input' | 'self' | 'external'; refs: string[] };
    inputFingerprints?: string[];
  };
  readPublished: { run: RunRef; node: string };
  readVersion: { run: RunRef; node: string; version: string };
  listReceipts: { run: RunRef; node?: string };
  writeWorkspace: { run: RunRef; node: string; files: Record<string, string> };
}

export interface BindingSummary {
  name: string;
  kind: BindingKind;
  executionId: ExecutionId | null;
  attached: boolean;
}

export interface OpResults {
  createRun: { runId: string; run: RunRef };
  getRun: { runId: string; status: RunStatus; program: string; programPath?: string };
  setRunStatus: Record<string, never>;
  createImport: { run: RunRef };
  enterFrame: { executionId: ExecutionId; depth: number };
  exitFrame: Record<string, never>;
  recordEvent: Record<string, never>;
  allocateAnon: { name: string };
  bind: { name: string; executionId: ExecutionId | null; attached: boolean; location: string };
  resolve: {
    name: string;
    kind: BindingKind;
    value: string;
    executionId: ExecutionId | null;
    attached: boolean;
    source?: string;
  };
  listBindings: { bindings: BindingSummary[] };
  writeMemory: { location: string };
  readMemory: { memory: string };
  appendSegment: { number: number; file: string };
  listSegments: { segments: Segment[] };
  resume: ResumeState;
  writeEnvelope: Record<string, never>;
  readEnvelope: { compiledIntent: Record<string, unknown>; rootSource: string; sources: Record<string, string> };
  commitWorldModel: {
    status: 'rendered' | 'skipped';
    version: string | null;
    contentHash: string;
    prev: string | null;
    fingerprints: Record<string, string>;
  };
  failRender: { status: 'failed'; contentHash: string; prev: string | null };
  readPublished: { version: string | null; fingerprints: Record<string, string>; files: Record<string, string> };
  readVersion: { files: Record<string, string> };
  listReceipts: { receipts: Record<string, unknown>[] };
  writeWorkspace: Record<string, never>;
}

export type OpName = keyof OpArgs;

/** Who the seed says makes a call: the VM, a subagent writing its binding, or a persistent agent. */
export type Writer = 'vm' | 'subagent' | 'agent' | 'reader' | 'any';

/** A small type language for argument checking, shared by the YAML loader and the protocol schema. */
export type ArgType = 'string' | 'int' | 'int|null' | 'object' | 'string[]' | 'event' | 'kind' | 'scope' | 'status';

export interface OpSpec {
  writer: Writer;
  args: Record<string, { type: ArgType; optional?: boolean }>;
  /** A capability the call needs whatever its arguments. */
  capability?: Capability;
  doc: string;
}

const run = { type: 'string' } as const;
const opt = <T extends ArgType>(type: T) => ({ type, optional: true }) as const;
const agentLoc = {
  agent: { type: 'string' },
  scope: { type: 'scope' },
  run: opt('string'),
  path: opt('string'),
} as const;

export const OPS: { [K in OpName]: OpSpec } = {
  createRun: {
    writer: 'vm',
    args: { runId: opt('string'), program: { type: 'string' }, programPath: opt('string') },
    doc: 'create a run and store its program',
  },
  getRun: { writer: 'reader', args: { run }, doc: 'read a run' },
  setRunStatus: {
    writer: 'vm',
    args: { run, status: { type: 'status' } },
    doc: 'set running/completed/failed/interrupted',
  },
  createImport: {
    writer: 'vm',
    args: { run, handle: { type: 'string' }, slug: { type: 'string' }, program: { type: 'string' } },
    capability: 'imports',
    doc: 'create the nested run of an imported program',
  },
  enterFrame: {
    writer: 'vm',
    args: { run, block: { type: 'string' }, parent: opt('int|null'), maxDepth: opt('int'), args: opt('object') },
    doc: 'push a block invocation frame',
  },
  exitFrame: { writer: 'vm', args: { run, executionId: { type: 'int' }, status: opt('string') }, doc: 'pop a frame' },
  recordEvent: {
    writer: 'vm',
    args: { run, event: { type: 'event' } },
    doc: 'record a statement, parallel, loop, retry or error event',
  },
  allocateAnon: { writer: 'vm', args: { run }, doc: 'allocate the next anonymous binding name of the run' },
  bind: {
    writer: 'subagent',
    args: {
      run,
      name: { type: 'string' },
      kind: { type: 'kind' },
      value: { type: 'string' },
      executionId: opt('int|null'),
      source: opt('string'),
    },
    doc: 'write a binding in root or frame scope',
  },
  resolve: {
    writer: 'reader',
    args: { run, name: { type: 'string' }, executionId: opt('int|null') },
    doc: 'resolve a name: current frame, its parents, then root',
  },
  listBindings: { writer: 'reader', args: { run }, doc: 'list every binding of a run' },
  writeMemory: {
    writer: 'agent',
    args: { ...agentLoc, memory: { type: 'string' } },
    doc: "replace a persistent agent's memory",
  },
  readMemory: { writer: 'reader', args: agentLoc, doc: "read a persistent agent's memory" },
  appendSegment: {
    writer: 'agent',
    args: { ...agentLoc, prompt: { type: 'string' }, summary: { type: 'string' }, timestamp: opt('string') },
    doc: 'append the next numbered segment',
  },
  listSegments: { writer: 'reader', args: agentLoc, doc: "list an agent's segments in order" },
  resume: { writer: 'reader', args: { run }, doc: 'read back everything a resume needs' },
  writeEnvelope: {
    writer: 'vm',
    args: { run, compiledIntent: { type: 'object' }, rootSource: { type: 'string' }, sources: opt('object') },
    capability: 'world-model',
    doc: 'write the durable run envelope: compiled intent, root.prose.md, sources/',
  },
  readEnvelope: { writer: 'reader', args: { run }, capability: 'world-model', doc: 'read the run envelope back' },
  commitWorldModel: {
    writer: 'vm',
    capability: 'world-model',
    doc: "commit a node's files: publish a new version and a rendered receipt, or a skipped receipt when nothing moved",
    args: {
      run,
      node: { type: 'string' },
      files: { type: 'object' },
      contract: { type: 'string' },
      facets: opt('string[]'),
      wake: opt('object'),
      inputFingerprints: opt('string[]'),
      tokens: opt('object'),
      provider: opt('string'),
      model: opt('string'),
      semanticDiff: opt('object'),
    },
  },
  failRender: {
    writer: 'vm',
    capability: 'world-model',
    doc: 'record a failed render: a failed receipt, nothing published',
    args: {
      run,
      node: { type: 'string' },
      contract: { type: 'string' },
      reason: { type: 'string' },
      wake: opt('object'),
      inputFingerprints: opt('string[]'),
    },
  },
  readPublished: {
    writer: 'reader',
    capability: 'world-model',
    args: { run, node: { type: 'string' } },
    doc: "read a node's published version (cold start: version null)",
  },
  readVersion: {
    writer: 'reader',
    capability: 'world-model',
    args: { run, node: { type: 'string' }, version: { type: 'string' } },
    doc: 'read an older version pinned by its address',
  },
  listReceipts: {
    writer: 'reader',
    capability: 'receipts',
    args: { run, node: opt('string') },
    doc: "the receipt ledger, in append order (one node's chain, or all)",
  },
  writeWorkspace: {
    writer: 'any',
    capability: 'world-model',
    args: { run, node: { type: 'string' }, files: { type: 'object' } },
    doc: "write a node's private workspace (never fingerprinted)",
  },
};

export function isOpName(value: unknown): value is OpName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(OPS, value);
}

export type { FrameState };
