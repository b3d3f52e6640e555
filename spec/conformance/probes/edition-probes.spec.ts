import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Backend, BackendEnv, BackendFactory, StorageKind } from '../../../src/core/backend.ts';
import type { Capability } from '../../../src/core/capabilities.ts';
import { editionLayout, type Edition } from '../../../src/core/editions.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { probeCapabilities, type CapabilityVerdict } from '../../../src/conformance/probes/capability-probes.ts';
import { tempEnv } from '../../plugin/fixtures/temp-env.ts';

/**
 * A backend that does one thing, createRun, writing the run directory of the edition it is opened in (or always the
 * v0 one, when it ignores env.edition); every other call is E_UNSUPPORTED.
 */
function fakeEditions(opts: {
  capabilities: Capability[];
  ignoresEdition?: boolean;
  kind?: StorageKind;
}): BackendFactory {
  let n = 0;
  return {
    name: 'fake-editions',
    kind: opts.kind ?? 'directory',
    capabilities: opts.capabilities,
    description: 'writes the run directory of its edition on createRun',
    open: async (env: BackendEnv): Promise<Backend> => ({
      async call(op) {
        if (op !== 'createRun') throw new ProseError('E_UNSUPPORTED', `${op} is not kept here`);
        const edition: Edition = opts.ignoresEdition ? 'v0' : (env.edition ?? 'v0');
        const runId = `20260101-000000-${String(++n).padStart(6, '0')}`;
        const dir = join(env.projectDir, editionLayout(edition).runsDir, runId);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, edition === 'v0' ? 'state.md' : 'vm.log.md'), '# run\n');
        return { run: runId, runId } as never;
      },
      storage: () => ({ kind: 'directory', projectDir: env.projectDir, homeDir: env.homeDir }),
      close: async () => undefined,
    }),
  };
}

async function editionVerdicts(factory: BackendFactory, edition?: Edition): Promise<Record<string, CapabilityVerdict>> {
  const env = tempEnv('probe-editions');
  try {
    const verdicts = await probeCapabilities(factory, { ...env, ...(edition ? { edition } : {}) });
    return Object.fromEntries(
      verdicts.filter((v) => v.capability.startsWith('edition:')).map((v) => [v.capability, v]),
    );
  } finally {
    env.cleanup();
  }
}

test('a backend that lays out each edition it declares keeps both claims, whichever edition it is judged in', async () => {
  const both = fakeEditions({ capabilities: ['edition:v0', 'edition:current'] });
  for (const judged of ['v0', 'current'] as const) {
    const v = await editionVerdicts(both, judged);
    assert.equal(
      [v['edition:v0']!.verdict, v['edition:current']!.verdict, v['edition:current']!.works],
      ['ok', 'ok', true],
      judged,
    );
  }
});

test('a backend that declares edition:current but ignores env.edition is claimed-but-broken, naming the marker', async () => {
  const v = await editionVerdicts(
    fakeEditions({ capabilities: ['edition:v0', 'edition:current'], ignoresEdition: true }),
  );
  assert.is(v['edition:v0']!.verdict, 'ok');
  assert.is(v['edition:current']!.verdict, 'claimed-but-broken');
  assert.match(
    v['edition:current']!.detail ?? '',
    /opened in edition current, createRun wrote no .*runs\/20260101-000000-\d+\/vm\.log\.md/,
  );
});

test('a v0 tree that declares only current is caught too: it wrote state.md, not vm.log.md', async () => {
  const v = await editionVerdicts(fakeEditions({ capabilities: ['edition:current'], ignoresEdition: true }));
  assert.is(v['edition:current']!.verdict, 'claimed-but-broken');
  // Undeclared editions are not probed: a backend needs no refusal for a text it does not follow.
  assert.equal(v['edition:v0'], {
    capability: 'edition:v0',
    declared: false,
    works: null,
    verdict: 'ok',
    detail: 'nothing to refuse when undeclared',
  });
});

test('a backend from before editions (no edition:* declared) contradicts no edition claim', async () => {
  const v = await editionVerdicts(fakeEditions({ capabilities: [] }));
  assert.equal([v['edition:v0']!.verdict, v['edition:current']!.verdict], ['ok', 'ok']);
});

test('storage with no run directory of its own is unprobed, with the reason', async () => {
  const v = await editionVerdicts(fakeEditions({ capabilities: ['edition:v0'], kind: 'postgres' }));
  assert.is(v['edition:v0']!.verdict, 'unprobed');
  assert.match(v['edition:v0']!.detail ?? '', /PostgreSQL schema tells its edition by its columns/);
  const t = await editionVerdicts(fakeEditions({ capabilities: ['edition:current'], kind: 'transcript' }));
  assert.match(t['edition:current']!.detail ?? '', /transcript has no tree/);
});

test.run();
