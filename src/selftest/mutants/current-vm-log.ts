import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FsCurrentStore } from '../../backends/filesystem/current-store.ts';
import { appendStepMarker, receiptMarker, VM_LOG, type StepMarker } from '../../backends/filesystem/vm-log.ts';
import type { RunRecord, RunRef, RunStatus } from '../../core/model.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { mutant, type Mutant } from '../mutant.ts';

/** The receipt's marker for a node, as the reference builds it. */
const markerOf = (node: string, receiptJson: string) => {
  const r = JSON.parse(receiptJson) as { status: string; semantic_diff?: { failure_reason?: string } };
  return receiptMarker(node, r.status, r.semantic_diff?.failure_reason);
};

/**
 * Bugs in the current edition's vm.log.md (fs "`vm.log.md` — Append-Only Execution Log": the header, "Event
 * Markers", "Each write is a single line append"): judged in the current edition, on its layout cases alone.
 */
export const CURRENT_VM_LOG_MUTANTS: Mutant[] = [
  mutant(
    'vm-log-markers-held-to-the-end',
    "vm.log.md's render markers are held in memory and appended when the run ends, after its ---end or ---error line",
    {
      edition: 'current',
      areas: ['current-layout'],
      base: (env, d) => new HeldMarkers(env.projectDir, env.homeDir, d),
    },
  ),
  mutant(
    'vm-log-line-rewritten',
    "a node's new marker rewrites the line of its last one in vm.log.md (one line per node), instead of appending",
    {
      edition: 'current',
      areas: ['current-layout'],
      base: (env, d) => new LinePerNode(env.projectDir, env.homeDir, d),
    },
  ),
  mutant(
    'vm-log-header-blank-line',
    "vm.log.md's header has a blank line between the # run: heading and its root: line",
    {
      edition: 'current',
      areas: ['current-layout'],
      base: (env, d) => new OtherHeader(env.projectDir, env.homeDir, d, (h) => h.replace('\nroot: ', '\n\nroot: ')),
    },
  ),
  mutant('vm-log-header-without-root', "vm.log.md's header leaves out the root: line", {
    edition: 'current',
    areas: ['current-layout'],
    base: (env, d) => new OtherHeader(env.projectDir, env.homeDir, d, (h) => h.replace(/\nroot: [^\n]*/, '')),
  }),
];

/** Buffers each run's render markers and writes them after the run's status marker (a log flushed at the end). */
class HeldMarkers extends FsCurrentStore {
  private readonly held = new Map<RunRef, StepMarker[]>();

  protected override async receiptAppended(run: RunRef, node: string, receiptJson: string): Promise<void> {
    this.held.set(run, [...(this.held.get(run) ?? []), markerOf(node, receiptJson)]);
  }

  override async setRunStatus(run: RunRef, status: RunStatus): Promise<void> {
    await super.setRunStatus(run, status);
    if (status !== 'completed' && status !== 'failed') return;
    for (const marker of this.held.get(run) ?? []) appendStepMarker(this.paths.runDir(run), marker);
    this.held.delete(run);
  }
}

/** Keeps one line per node: a node's later marker replaces its earlier line, the file written whole. */
class LinePerNode extends FsCurrentStore {
  protected override async receiptAppended(run: RunRef, node: string, receiptJson: string): Promise<void> {
    const file = join(this.paths.runDir(run), VM_LOG);
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => new RegExp(`^([0-9]+)→ ${node} `).test(l));
    if (at < 0) return appendStepMarker(this.paths.runDir(run), markerOf(node, receiptJson));
    lines[at] = markerOf(node, receiptJson)(Number(/^[0-9]+/.exec(lines[at]!)![0]), undefined);
    writeFileAtomic(file, lines.join('\n'));
  }
}

/** Writes the reference's vm.log.md header changed by `change`. */
class OtherHeader extends FsCurrentStore {
  constructor(
    projectDir: string,
    homeDir: string,
    decisions: ConstructorParameters<typeof FsCurrentStore>[2],
    private readonly change: (header: string) => string,
  ) {
    super(projectDir, homeDir, decisions);
  }

  protected override layRunFiles(dir: string, rec: RunRecord): void {
    super.layRunFiles(dir, rec);
    const file = join(dir, VM_LOG);
    writeFileAtomic(file, this.change(readFileSync(file, 'utf8')));
  }
}
