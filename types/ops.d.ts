import type { Capability } from './capabilities.ts';
import type { AgentScope, BindingKind, ExecutionEvent, ExecutionId, FrameState, ResumeState, RunRef, RunStatus, Segment } from './model.ts';
/**
 * The one operation vocabulary. It is the TypeScript contract (`Backend.call`), the `op:` of a YAML step and the
 * `op` of a stdio request, so a new operation is added here once for all three.
 */
export interface OpArgs {
    createRun: {
        runId?: string;
        program: string;
        programPath?: string;
    };
    getRun: {
        run: RunRef;
    };
    setRunStatus: {
        run: RunRef;
        status: RunStatus;
    };
    createImport: {
        run: RunRef;
        handle: string;
        slug: string;
        program: string;
    };
    enterFrame: {
        run: RunRef;
        block: string;
        parent?: ExecutionId | null;
        maxDepth?: number;
        args?: Record<string, string>;
    };
    exitFrame: {
        run: RunRef;
        executionId: ExecutionId;
        status?: 'completed' | 'failed';
    };
    recordEvent: {
        run: RunRef;
        event: ExecutionEvent;
    };
    allocateAnon: {
        run: RunRef;
    };
    bind: {
        run: RunRef;
        name: string;
        kind: BindingKind;
        value: string;
        executionId?: ExecutionId | null;
        source?: string;
    };
    resolve: {
        run: RunRef;
        name: string;
        executionId?: ExecutionId | null;
    };
    listBindings: {
        run: RunRef;
    };
    writeMemory: {
        agent: string;
        scope: AgentScope;
        memory: string;
        run?: RunRef;
        path?: string;
    };
    readMemory: {
        agent: string;
        scope: AgentScope;
        run?: RunRef;
        path?: string;
    };
    appendSegment: {
        agent: string;
        scope: AgentScope;
        prompt: string;
        summary: string;
        timestamp?: string;
        run?: RunRef;
        path?: string;
    };
    listSegments: {
        agent: string;
        scope: AgentScope;
        run?: RunRef;
        path?: string;
    };
    resume: {
        run: RunRef;
    };
    writeEnvelope: {
        run: RunRef;
        compiledIntent: Record<string, unknown>;
        rootSource: string;
        sources?: Record<string, string>;
    };
    readEnvelope: {
        run: RunRef;
    };
    commitWorldModel: {
        run: RunRef;
        node: string;
        files: Record<string, string>;
        contract: string;
        /** The node's declared facets (`####` under `### Maintains`): each also fingerprints `published/<facet>/`. */
        facets?: string[];
        wake?: {
            source: 'input' | 'self' | 'external';
            refs: string[];
        };
        inputFingerprints?: string[];
        tokens?: {
            fresh: number;
            reused: number;
        };
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
        wake?: {
            source: 'input' | 'self' | 'external';
            refs: string[];
        };
        inputFingerprints?: string[];
    };
    readPublished: {
        run: RunRef;
        node: string;
    };
    readVersion: {
        run: RunRef;
        node: string;
        version: string;
    };
    listReceipts: {
        run: RunRef;
        node?: string;
    };
    writeWorkspace: {
        run: RunRef;
        node: string;
        files: Record<string, string>;
    };
}
export interface BindingSummary {
    name: string;
    kind: BindingKind;
    executionId: ExecutionId | null;
    attached: boolean;
}
export interface OpResults {
    createRun: {
        runId: string;
        run: RunRef;
    };
    getRun: {
        runId: string;
        status: RunStatus;
        program: string;
        programPath?: string;
    };
    setRunStatus: Record<string, never>;
    createImport: {
        run: RunRef;
    };
    enterFrame: {
        executionId: ExecutionId;
        depth: number;
    };
    exitFrame: Record<string, never>;
    recordEvent: Record<string, never>;
    allocateAnon: {
        name: string;
    };
    bind: {
        name: string;
        executionId: ExecutionId | null;
        attached: boolean;
        location: string;
    };
    resolve: {
        name: string;
        kind: BindingKind;
        value: string;
        executionId: ExecutionId | null;
        attached: boolean;
        source?: string;
    };
    listBindings: {
        bindings: BindingSummary[];
    };
    writeMemory: {
        location: string;
    };
    readMemory: {
        memory: string;
    };
    appendSegment: {
        number: number;
        file: string;
    };
    listSegments: {
        segments: Segment[];
    };
    resume: ResumeState;
    writeEnvelope: Record<string, never>;
    readEnvelope: {
        compiledIntent: Record<string, unknown>;
        rootSource: string;
        sources: Record<string, string>;
    };
    commitWorldModel: {
        status: 'rendered' | 'skipped';
        version: string | null;
        contentHash: string;
        prev: string | null;
        fingerprints: Record<string, string>;
    };
    failRender: {
        status: 'failed';
        contentHash: string;
        prev: string | null;
    };
    readPublished: {
        version: string | null;
        fingerprints: Record<string, string>;
        files: Record<string, string>;
    };
    readVersion: {
        files: Record<string, string>;
    };
    listReceipts: {
        receipts: Record<string, unknown>[];
    };
    writeWorkspace: Record<string, never>;
}
export type OpName = keyof OpArgs;
/** Who the seed says makes a call: the VM, a subagent writing its binding, or a persistent agent. */
export type Writer = 'vm' | 'subagent' | 'agent' | 'reader' | 'any';
/** A small type language for argument checking, shared by the YAML loader and the protocol schema. */
export type ArgType = 'string' | 'int' | 'int|null' | 'object' | 'string[]' | 'event' | 'kind' | 'scope' | 'status';
export interface OpSpec {
    writer: Writer;
    args: Record<string, {
        type: ArgType;
        optional?: boolean;
    }>;
    /** A capability the call needs whatever its arguments. */
    capability?: Capability;
    doc: string;
}
export declare const OPS: {
    [K in OpName]: OpSpec;
};
export declare function isOpName(value: unknown): value is OpName;
export type { FrameState };
