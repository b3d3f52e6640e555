import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunPaths } from '../../backends/filesystem/run-paths.ts';
import { ProseError } from '../../core/errors.ts';
import { formatSegmentFile } from '../../core/formats/segment-file.ts';
import type { AgentLocation, BindingRecord, ExecutionId } from '../../core/model.ts';
import { segmentFileName } from '../../core/numbering.ts';
import { newRunId } from '../../core/run-id.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

/**
 * Bugs a backend (or a checker) written from the seeds alone plausibly has, each of which the suite let through
 * before issue #16 item 6 added the case that kills it.
 */
export const CLEAN_ROOM_MUTANTS: Mutant[] = [
  mutant(
    'segment-count-plus-one',
    'the next segment number is the number of segment files + 1, so after a gap it overwrites the newest segment',
    {
      store: (base, env) => ({
        appendSegment: async (loc: AgentLocation, seg) => {
          const n = (await base.listSegments(loc)).length + 1;
          const dir = new RunPaths(env.projectDir, env.homeDir).agentDir(loc);
          const file = segmentFileName(loc.agent, n, env.decisions.segmentWidth);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, file), formatSegmentFile({ number: n, ...seg }, env.decisions.segmentWidth));
          return { number: n, file, ...seg };
        },
      }),
    },
  ),
  mutant(
    'project-memory-per-run',
    'project-scope memory is kept under the run the call names, so another run of the project does not see it',
    {
      intercept: async (op, args, actor, ctx) => {
        const moved =
          (op === 'writeMemory' || op === 'readMemory') && args.scope === 'project' && args.run !== undefined;
        return pass(op, moved ? { ...args, scope: 'execution' } : args, actor, ctx);
      },
    },
  ),
  mutant(
    'user-memory-per-project',
    'user-scope memory is read from a copy kept in the project, so it is lost when the VM moves to another project',
    {
      intercept: async (op, args, actor, ctx) => {
        if ((op !== 'writeMemory' && op !== 'readMemory') || args.scope !== 'user') return pass(op, args, actor, ctx);
        const key = `${ctx.env.projectDir}\0${String(args.agent)}`;
        if (op === 'writeMemory') {
          const r = await pass(op, args, actor, ctx);
          userCopies.set(key, String(args.memory));
          return r;
        }
        const memory = userCopies.get(key);
        if (memory === undefined)
          throw new ProseError('E_NOT_FOUND', `agent ${String(args.agent)} has no user memory yet`);
        return { memory };
      },
    },
  ),
  mutant(
    'run-id-local-time',
    'a generated run id takes its digits from local time (UTC+02:00 here), while started: is UTC',
    {
      intercept: async (op, args, actor, ctx) => {
        if (op !== 'createRun' || args.runId !== undefined) return pass(op, args, actor, ctx);
        return pass(op, { ...args, runId: newRunId(new Date(Date.now() + 2 * 3600_000)) }, actor, ctx);
      },
    },
  ),
  mutant('run-id-other-instant', 'a generated run id and started: are read from two clocks a second apart', {
    intercept: async (op, args, actor, ctx) => {
      if (op !== 'createRun' || args.runId !== undefined) return pass(op, args, actor, ctx);
      return pass(op, { ...args, runId: newRunId(new Date(Date.now() - 1000)) }, actor, ctx);
    },
  }),
  mutant('no-grandparent-walk', 'resolution looks in the current frame, its parent and root, never further up', {
    store: (base) => ({
      resolveBinding: async (run, name, chain) => {
        for (const id of [...chain.slice(0, 2).filter((x) => x !== null), null] as (ExecutionId | null)[]) {
          const b = await base.readBinding(run, name, id);
          if (b) return b;
        }
        return undefined;
      },
    }),
  }),
  mutant(
    'threshold-three-byte-as-two',
    'the attachment threshold counts every non-ASCII BMP character as 2 bytes (right for é, wrong for €)',
    {
      store: (base, env) => ({
        writeBinding: (run, b: BindingRecord, attach) =>
          base.writeBinding(run, b, attach && approxBytes(b.value) > env.decisions.attachmentThresholdBytes),
      }),
    },
  ),
  mutant(
    'render-writes-world-model',
    'a render session (a subagent) may commit, fail a render and write the envelope',
    {
      intercept: async (op, args, actor, ctx) => {
        const vmOnly = op === 'commitWorldModel' || op === 'failRender' || op === 'writeEnvelope';
        return pass(op, args, vmOnly && actor.role === 'subagent' ? { role: 'vm' } : actor, ctx);
      },
    },
  ),
  mutant(
    'checker-execution-id-optional',
    'the session checker accepts a frame binding\'s confirmation without "Execution ID:"',
    {
      checker: (findings) =>
        findings.filter((f) => !(f.rule === 'message.execution-id' && /there is no "Execution ID/.test(f.message))),
    },
  ),
  mutant(
    'checker-memory-block-optional',
    'the session checker accepts a persistent agent\'s confirmation without "Memory updated:"',
    {
      checker: (findings) =>
        findings.filter((f) => !(f.rule === 'message.segment-missing' && /no "Memory updated:"/.test(f.message))),
    },
  ),
  mutant('checker-decision-without-rationale', 'the session checker accepts a DECISION signal without RATIONALE', {
    checker: (findings) => findings.filter((f) => !(f.rule === 'signal.decision' && /RATIONALE/.test(f.message))),
  }),
  mutant(
    'checker-large-inline-accepted',
    'the session checker accepts an output over the attachment threshold stored in place',
    {
      checker: (findings) => findings.filter((f) => f.rule !== 'binding.attachment'),
    },
  ),
];

/** What the project copies of user memory hold, per project directory (kept across restarts, as a file would be). */
const userCopies = new Map<string, string>();

/** UTF-8 length with every BMP character past ASCII counted as 2 bytes: the bug of the threshold mutant above. */
function approxBytes(s: string): number {
  let n = 0;
  for (const ch of s) n += ch.codePointAt(0)! < 0x80 ? 1 : ch.codePointAt(0)! > 0xffff ? 4 : 2;
  return n;
}
