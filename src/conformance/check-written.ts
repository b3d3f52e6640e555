import { artifactAddress, verifyReceiptChain } from '../canon/index.ts';
import { VM } from '../core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import { DEFAULT_EDITION, editionLayout } from '../core/editions.ts';
import { toProseError } from '../core/errors.ts';
import { keepsOnlyWorldModel } from '../core/world-model-only.ts';
import { checkCommits } from './check-commits.ts';
import { itemValue } from './workload.ts';

const ITEM = /^w(\d+)_(\d+)$/;

/**
 * After writers were killed or raced, checks what survives: every acknowledged write is there exactly, nothing
 * present is torn, segment numbers run 1..n with no gap or repeat, anonymous names are unique, receipt chains are
 * unbroken and published versions hash to their address, acknowledged commits are in the ledger, SQLite says integrity ok, and the run still resumes.
 * Returns the first violation, or undefined.
 */
export async function checkWritten(
  backend: Backend,
  factory: BackendFactory,
  run: string,
  acks: Map<string, unknown>,
  env: Pick<BackendEnv, 'decisions' | 'edition'>,
  exact = false,
): Promise<string | undefined> {
  const thresholdBytes = env.decisions.attachmentThresholdBytes;
  try {
    // A backend without bindings is read back through its ledger alone (it has no resume or listBindings to call).
    const runState = async () =>
      (await checkBindings(backend, run, acks, thresholdBytes)) ??
      (await checkSegments(backend, run, acks, exact)) ??
      (await checkAnon(backend, run, acks, exact));
    return (
      (keepsOnlyWorldModel(factory.capabilities) ? undefined : await runState()) ??
      (await checkWorldModel(backend, factory, run)) ??
      (ledgered(factory) ? await checkCommits(backend, run, acks, exact) : undefined) ??
      (await checkSqlite(backend, factory, run, editionLayout(env.edition ?? DEFAULT_EDITION).runsDir))
    );
  } catch (err) {
    const e = toProseError(err);
    return `reading the state back failed: ${e.code}: ${e.message}`;
  }
}

async function checkBindings(
  b: Backend,
  run: string,
  acks: Map<string, unknown>,
  threshold: number,
): Promise<string | undefined> {
  const { bindings } = await b.call('listBindings', { run }, VM);
  const present = new Set(bindings.map((x) => x.name));
  for (const key of acks.keys()) {
    const name = key.startsWith('binding ') ? key.slice(8) : undefined;
    if (name && !present.has(name)) return `acknowledged binding ${name} is missing`;
  }
  for (const { name } of bindings) {
    const m = ITEM.exec(name);
    if (!m) continue;
    const r = await b.call('resolve', { run, name }, VM);
    if (r.value !== itemValue(Number(m[1]), Number(m[2]), threshold))
      return `binding ${name} reads back torn (${r.value.length} chars)`;
  }
  return undefined;
}

async function checkSegments(
  b: Backend,
  run: string,
  acks: Map<string, unknown>,
  exact: boolean,
): Promise<string | undefined> {
  const segmentAcks = [...acks].filter(([k]) => k.startsWith('segment '));
  if (segmentAcks.length === 0) return undefined;
  const { segments } = await b.call('listSegments', { run, agent: 'captain', scope: 'execution' }, VM);
  // With every writer finished (no write cut short), there is exactly one segment per acknowledged append.
  if (exact && segments.length !== segmentAcks.length)
    return `${segmentAcks.length} segments were acknowledged but ${segments.length} are stored`;
  for (const [i, s] of segments.entries()) {
    if (s.number !== i + 1) return `segment numbers are not 1..${segments.length}: position ${i + 1} holds ${s.number}`;
  }
  for (const [key, result] of segmentAcks) {
    const n = (result as { number?: number }).number ?? 0;
    const prompt = key.slice(8);
    if (segments[n - 1]?.prompt !== prompt)
      return `acknowledged segment ${n} (${prompt}) holds ${JSON.stringify(segments[n - 1]?.prompt ?? null)}`;
  }
  return undefined;
}

async function checkAnon(
  b: Backend,
  run: string,
  acks: Map<string, unknown>,
  exact: boolean,
): Promise<string | undefined> {
  const names = [...acks].filter(([k]) => k.startsWith('anon ')).map(([, r]) => (r as { name?: string }).name);
  const resume = await b.call('resume', { run }, VM);
  if (names.length === 0) return undefined;
  const seen = new Set<string>();
  for (const n of names) {
    if (!n || seen.has(n)) return `anonymous name ${n} was handed out twice`;
    seen.add(n);
  }
  if (resume.anonCount < names.length || (exact && resume.anonCount !== names.length))
    return `${names.length} anonymous names were acknowledged but the run counts ${resume.anonCount}`;
  return undefined;
}

const ledgered = (f: BackendFactory) => f.capabilities.includes('receipts') && f.capabilities.includes('world-model');

async function checkWorldModel(b: Backend, f: BackendFactory, run: string): Promise<string | undefined> {
  if (!ledgered(f)) return undefined;
  const { receipts } = await b.call('listReceipts', { run }, VM);
  const byNode = new Map<string, unknown[]>();
  for (const r of receipts) byNode.set(String(r.node), [...(byNode.get(String(r.node)) ?? []), r]);
  for (const [node, chain] of byNode) {
    const problems = verifyReceiptChain(chain);
    if (problems.length) return `receipt chain of ${node} is broken: ${problems[0]!.message}`;
    const pub = await b.call('readPublished', { run, node }, VM);
    if (pub.version !== null && artifactAddress(pub.files) !== pub.version)
      return `published version of ${node} does not hash to ${pub.version}`;
  }
  return undefined;
}

async function checkSqlite(b: Backend, f: BackendFactory, run: string, runsDir: string): Promise<string | undefined> {
  const view = b.storage?.();
  if (f.kind !== 'sqlite' || view?.kind !== 'sqlite') return undefined;
  const rows = await view.query(`${runsDir}/${run}/state.db`, 'PRAGMA integrity_check');
  const verdict = rows.map((r) => Object.values(r)[0]).join('; ');
  return verdict === 'ok' ? undefined : `state.db integrity_check says: ${verdict}`;
}
