// The `instructions` command's text, followed literally by the scripted subagent (src/session/follow-instructions.ts)
// on every built-in backend: the backend reads the binding back with its own API, and the returned message passes
// the checker. The session-protocol conformance area runs the same follower from YAML cases.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VM } from '../../src/core/actor.ts';
import { instructionsText } from '../../src/cli/commands/instructions.ts';
import { checkSubagentOutput, followInstructions, type SubagentWork } from '../../src/session/index.ts';
import { openBackend, type Kind } from './helpers/backends.ts';

const SELF = [process.execPath, resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/prose-state.js')];

const VALUE = `AI safety research covers "alignment", robustness & interpretability.\nIt's about $HOME, \`backticks\`, back\\slashes and 'quotes'.\n\n---\n\nA separator line above, and a trailing newline.\n`;
const MEMORY = `# Agent Memory: captain\n\n## Current Understanding\n\nREST API for user management; coverage target 80% (src/api/users.ts).\n\n## Decisions Made\n\n- 2026-01-16: Approved JWT over session tokens — simpler stateless auth, O'Brien agreed\n\n## Open Concerns\n\n- Rate limiting missing on POST /login\n`;
const SEGMENT = `- Reviewed: src/auth/login.ts:45-120\n- Found: SQL injection risk in query builder line 67\n- Decided: request fixes for #1 before step 3\n- Next: re-review after fixes\n`;
const WORK: SubagentWork = {
  value: VALUE,
  summary: 'Safety overview with 3 areas and quoting edge cases.',
  memory: MEMORY,
  segmentSummary: SEGMENT,
};

async function scenario(
  kind: Kind,
  opts: { frame?: boolean; agent?: boolean; shim?: boolean; large?: boolean; ignoreLarge?: boolean } = {},
) {
  const o = await openBackend(kind);
  try {
    const { run } = await o.backend.call('createRun', { program: 'let research = session: researcher\n' }, VM);
    let eid: number | null = null;
    if (opts.frame) eid = (await o.backend.call('enterFrame', { run, block: 'process' }, VM)).executionId;
    const argv = [
      '--backend',
      kind,
      '--run',
      run,
      '--project',
      o.projectDir,
      '--home',
      o.homeDir,
      '--binding',
      'research',
      '--source',
      `let research = session "Research it's \"$x\""`,
    ];
    if (eid !== null) argv.push('--execution-id', String(eid));
    if (opts.agent)
      argv.push(
        '--agent',
        'captain',
        '--scope',
        'execution',
        '--prompt',
        'Review the "plan"',
        ...(kind === 'postgres' ? ['--segment', '1'] : []),
      );
    if (kind === 'sqlite') argv.push('--sqlite3', opts.shim ? 'prose-state' : 'sqlite3');
    // A small threshold makes VALUE a large output: the instructions' large-output section applies.
    if (opts.large) argv.push('--attachment-threshold', '64');
    const text = await instructionsText(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: {},
      cwd: o.projectDir,
    });
    const message = await followInstructions(
      text,
      { ...WORK, ...(opts.ignoreLarge ? { ignoreLargeOutput: true } : {}) },
      {
        storage: o.storage,
        projectDir: o.projectDir,
        homeDir: o.homeDir,
        ...(opts.shim ? { self: SELF } : {}),
        env: { ...process.env, NODE_OPTIONS: '' },
        ...(o.pgRun
          ? {
              pgRun: async (sql: string) => {
                await o.pgRun!(sql);
              },
            }
          : {}),
      },
    );
    const got = await o.backend.call(
      'resolve',
      { run, name: 'research', ...(eid !== null ? { executionId: eid } : {}) },
      VM,
    );
    assert.is(got.value, VALUE, 'the backend reads back exactly what the subagent wrote');
    assert.is(
      got.attached,
      !!opts.large && !opts.ignoreLarge,
      'attached exactly when the output is over the threshold',
    );
    assert.is(got.executionId, eid);
    if (opts.agent) {
      assert.is((await o.backend.call('readMemory', { agent: 'captain', scope: 'execution', run }, VM)).memory, MEMORY);
      const segs = (await o.backend.call('listSegments', { agent: 'captain', scope: 'execution', run }, VM)).segments;
      assert.equal(
        segs.map((s) => [s.number, s.prompt]),
        [[1, 'Review the "plan"']],
      );
    }
    const runDir = join(o.projectDir, '.prose', 'runs', run);
    const findings = await checkSubagentOutput(message, kind === 'postgres' ? run : runDir, {
      projectDir: o.projectDir,
      homeDir: o.homeDir,
      storage: o.storage,
      ...(o.pgQuery ? { pgQuery: o.pgQuery } : {}),
      ...(opts.large ? { attachmentThresholdBytes: 64 } : {}),
      expect: { binding: 'research', executionId: eid, ...(opts.agent ? { agent: 'captain', segment: 1 } : {}) },
    });
    if (opts.ignoreLarge)
      assert.equal(
        findings.map((f) => f.rule),
        ['binding.attachment'],
        'a large output stored in place is reported',
      );
    else assert.equal(findings, [], `the message built as instructed passes:\n${message}`);
    return { message, text };
  } finally {
    await o.backend.close();
  }
}

for (const kind of ['filesystem', 'sqlite', 'postgres'] as const) {
  test(`${kind}: root binding, followed literally, reads back and checks clean`, async () => {
    await scenario(kind);
  });
  test(`${kind}: binding in a block invocation carries its execution id`, async () => {
    const { message } = await scenario(kind, { frame: true });
    assert.match(message, /^Execution ID: 1$/m);
  });
  test(`${kind}: persistent agent writes binding, memory and segment 001`, async () => {
    await scenario(kind, { agent: true });
  });
  test(`${kind}: an output over the threshold goes to attachments/ as the large-output section says`, async () => {
    const { text } = await scenario(kind, { frame: true, agent: true, large: true });
    assert.match(text, /^----- BEGIN IF YOUR OUTPUT IS MORE THAN 64 BYTES -----$/m);
    assert.match(text, /attachments\/research__1\.md/);
  });
  test(`${kind}: a large output stored in place, ignoring that section, is reported as binding.attachment`, async () => {
    await scenario(kind, { large: true, ignoreLarge: true });
  });
}

test('sqlite: the same instructions through `prose-state sqlite3` (the shim) on a machine without sqlite3', async () => {
  const { text } = await scenario('sqlite', { shim: true, agent: true });
  assert.match(text, /^prose-state sqlite3 -cmd "\.timeout 10000" /m);
});

test.run();
