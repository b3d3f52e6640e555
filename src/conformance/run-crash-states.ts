import { dirname, join } from 'node:path';
import { ProseError } from '../core/errors.ts';
import { checkWritten } from './check-written.ts';
import { buildCrashStates, type CrashState } from './crash-states/build-states.ts';
import { FileModel } from './crash-states/file-model.ts';
import { findStrace, recordWorker } from './crash-states/record.ts';
import { resolveOps, type LoggedOp } from './crash-states/resolve-ops.ts';
import { specOf, type WorkerContext, type WorkerVerdict } from './run-workers.ts';
import { withTimeout } from './with-timeout.ts';
import { seededRandom, type Workload } from './workload.ts';

/** Files a crash state leaves out: SQLite rebuilds its shared-memory index, which it writes through mmap. */
const VOLATILE = /-shm$/;

export type CrashStatesVerdict = WorkerVerdict | { skip: string };

/** What runCrashStates reads of a crash-states step. */
export interface CrashStatesRun {
  workload: Workload;
  start: number;
  count: number;
  maxStates: number;
}

/**
 * The crash-states area: one writer runs the workload under strace; from its file operations every crash state
 * the weak model allows is built on a copy of the storage and opened by a fresh backend instance, which must hold
 * everything acknowledged before that crash point, whole, with nothing half visible.
 */
export async function runCrashStates(step: CrashStatesRun, ctx: WorkerContext): Promise<CrashStatesVerdict> {
  // A server's state is not in the files a writer touches (only its attachments are): a crash state built from
  // those files beside the server's committed rows is no state the backend can be in.
  if (ctx.factory.kind === 'postgres')
    return {
      skip: `not applicable: ${ctx.factory.name} keeps its state in a database server, which no file-level crash state captures`,
    };
  const tracer = findStrace();
  if ('skip' in tracer) return { skip: tracer.skip };
  await ctx.close();
  const began = Date.now();
  const rec = await record(step, ctx, tracer.strace);
  if ('skip' in rec) return { skip: rec.skip };
  const { initial, final, log, changes } = rec;
  const { states, candidates } = buildCrashStates(initial, log, step.maxStates, seededRandom(ctx.seed));
  let checked = 0;
  try {
    for (const [n, state] of states.entries()) {
      state.model.materialize();
      const what = `crash state ${n + 1} of ${states.length}`;
      const problem = await withTimeout(checkState(state, ctx), 2 * ctx.readyTimeoutMs, what);
      checked++;
      if (problem)
        return { ok: false, message: `${what} checked (${candidates} possible): ${describe(state, log)}: ${problem}` };
    }
  } finally {
    // The case goes on from the state the writer really left.
    final.materialize();
  }
  await ctx.reopen();
  return {
    ok: true,
    metrics: {
      'crash states checked': checked,
      'crash states possible': candidates,
      'file operations recorded': changes,
      'crash-state ms': Date.now() - began,
    },
  };
}

interface Recording {
  initial: FileModel;
  final: FileModel;
  log: LoggedOp[];
  /** The operations that change the storage (not acks, not syncs). */
  changes: number;
}

/**
 * One writer recorded under strace: the storage before it, the state its operations lead to (which must be the state
 * it left), and the operations; skipped when it made none under the storage.
 */
async function record(step: CrashStatesRun, ctx: WorkerContext, strace: string): Promise<Recording | { skip: string }> {
  const roots = [ctx.env.projectDir, ctx.env.homeDir];
  const initial = FileModel.load(roots);
  const calls = await recordWorker({
    strace,
    command: ctx.command,
    backendSpec: specOf(ctx.factory),
    env: ctx.env,
    workload: step.workload,
    run: ctx.run,
    start: step.start,
    count: step.count,
    readyTimeoutMs: ctx.readyTimeoutMs,
    logFile: join(dirname(ctx.env.projectDir), 'crash-states.strace'),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const final = initial.clone();
  const log = resolveOps(calls, final, process.cwd());
  const changes = log.filter((l) => l.op.t !== 'ack' && l.op.t !== 'sync').length;
  if (changes === 0)
    return {
      skip: `not applicable: the ${step.workload} workload made no file operations under the storage (${ctx.factory.name} keeps its state elsewhere)`,
    };
  const unexplained = firstDifference(final, FileModel.load(roots));
  if (unexplained)
    throw new ProseError(
      'E_BACKEND',
      `the recording does not explain the state the writer left: ${unexplained} (a write no system-call recorder sees, such as mmap or io_uring)`,
    );
  for (const m of [initial, final]) for (const p of [...m.names.keys()]) if (VOLATILE.test(p)) m.names.delete(p);
  return { initial, final, log, changes };
}

/** A fresh backend instance opened on one crash state must hold what was acknowledged before it; the problem, if not. */
async function checkState(state: CrashState, ctx: WorkerContext): Promise<string | undefined> {
  let backend;
  try {
    backend = await ctx.factory.open(ctx.env);
  } catch (err) {
    return `the backend does not open: ${(err as Error).message}`;
  }
  try {
    return await checkWritten(backend, ctx.factory, ctx.run, state.acks, ctx.env);
  } finally {
    await backend.close().catch(() => undefined);
  }
}

function describe(s: CrashState, log: LoggedOp[]): string {
  const at = (i: number) => `#${i + 1} ${log[i]!.label}`;
  const changes = log
    .slice(0, s.upTo)
    .map((l, i) => [l, i] as const)
    .filter(([l]) => l.op.t !== 'sync');
  const last = changes
    .slice(-3)
    .map(([, i]) => at(i))
    .join('; ');
  const where = `crash after operation ${s.upTo} of ${log.length}${last ? ` (last: ${last})` : ''}`;
  if (s.kind === 'torn') return `${where}, with ${at(s.torn!)} torn at a block boundary`;
  if (s.kind === 'omit') return `${where}, with ${at(s.omit!)} not yet on disk (no fsync had made it durable)`;
  return where;
}

/** The first name whose kind or content differs between two models, or undefined. */
function firstDifference(a: FileModel, b: FileModel): string | undefined {
  const names = new Set([...a.names.keys(), ...b.names.keys()]);
  for (const p of [...names].sort()) {
    if (VOLATILE.test(p)) continue;
    const x = a.names.get(p);
    const y = b.names.get(p);
    if (!x || !y) return `${p} is ${x ? 'not on disk' : 'on disk but never written'}`;
    if (x.kind !== y.kind) return `${p} is a ${y.kind} on disk`;
    if (x.kind === 'file' && y.kind === 'file' && !a.inodes.get(x.ino)!.equals(b.inodes.get(y.ino)!))
      return `${p} holds other bytes on disk`;
  }
  return undefined;
}
