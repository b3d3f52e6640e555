import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { postgresMemFactory } from '../../src/backends/postgres/index.ts';
import { hostileText } from './_arbitraries.ts';

// decision scope-resolution: {name}__{current}, then each parent's, then {name}; first match wins; non-ancestors
// never searched. decision rebinding: const refuses a second write at the same (name, scope) only.
const NAMES = ['a', 'b', 'c'] as const;

type Op =
  | { op: 'enter'; parent: number }
  | { op: 'exit'; frame: number }
  | { op: 'bind'; name: number; scope: number; kind: 'let' | 'const'; value: string }
  | { op: 'restart' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('enter' as const), parent: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('exit' as const), frame: fc.nat(20) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('bind' as const),
      name: fc.nat(NAMES.length - 1),
      scope: fc.nat(20),
      kind: fc.constantFrom('let' as const, 'const' as const),
      value: hostileText.map((s) => s.toWellFormed()),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
);

interface Model {
  frames: { id: number; parent: number | null; executing: boolean }[];
  bindings: Map<string, { value: string; kind: string }>;
}
const key = (name: string, scope: number | null) => `${name}@${scope ?? 'root'}`;

function expected(
  m: Model,
  name: string,
  from: number | null,
): { value: string; kind: string; executionId: number | null } | undefined {
  let cur: number | null = from;
  for (;;) {
    const b = m.bindings.get(key(name, cur));
    if (b) return { ...b, executionId: cur };
    if (cur === null) return undefined;
    cur = m.frames.find((f) => f.id === cur)!.parent;
  }
}

async function resolveAll(b: Backend, run: string, m: Model): Promise<void> {
  for (const name of [...NAMES, 'never']) {
    for (const from of [null, ...m.frames.map((f) => f.id)]) {
      const want = expected(m, name, from);
      try {
        const got = await b.call('resolve', { run, name, executionId: from }, VM);
        assert.ok(want, `${name} from ${from ?? 'root'} resolved to ${JSON.stringify(got)}, the model has nothing`);
        assert.equal(
          { value: got.value, kind: got.kind, executionId: got.executionId },
          want,
          `${name} from ${from ?? 'root'}`,
        );
      } catch (err) {
        if ((err as { code?: string }).code !== 'E_NOT_FOUND') throw err;
        assert.is(
          want,
          undefined,
          `${name} from ${from ?? 'root'}: E_NOT_FOUND, the model has ${JSON.stringify(want)}`,
        );
      }
    }
  }
  const listed = (await b.call('listBindings', { run }, VM)).bindings.map((x) => key(x.name, x.executionId)).sort();
  assert.equal(listed, [...m.bindings.keys()].sort());
}

async function checkAgainstModel(
  factory: BackendFactory,
  numRuns: number,
  ops: fc.Arbitrary<Op[]> = fc.array(opArb, { maxLength: 14 }),
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(ops, async (ops) => {
      const root = mkdtempSync(join(tmpdir(), 'prose-prop-'));
      const env: BackendEnv = {
        projectDir: join(root, 'project'),
        homeDir: join(root, 'home'),
        decisions: DEFAULT_DECISIONS,
        storageKey: root,
      };
      mkdirSync(env.projectDir);
      mkdirSync(env.homeDir);
      let b = await factory.open(env);
      try {
        const { run } = await b.call('createRun', { program: 'p' }, VM);
        const m: Model = { frames: [], bindings: new Map() };
        for (const o of ops) {
          if (o.op === 'restart') {
            await b.close();
            b = await factory.open(env);
          } else if (o.op === 'enter') {
            const live = m.frames.filter((f) => f.executing);
            const choice = o.parent % (live.length + 1);
            const parent = choice === 0 ? null : live[choice - 1]!.id;
            const r = await b.call('enterFrame', { run, block: 'blk', parent }, VM);
            assert.is(r.executionId, m.frames.length + 1, 'execution ids count invocations from 1');
            m.frames.push({ id: r.executionId, parent, executing: true });
          } else if (o.op === 'exit') {
            // Only a frame with no executing children may exit; the model picks one.
            const leaves = m.frames.filter(
              (f) => f.executing && !m.frames.some((c) => c.executing && c.parent === f.id),
            );
            if (leaves.length === 0) continue;
            const f = leaves[o.frame % leaves.length]!;
            await b.call('exitFrame', { run, executionId: f.id }, VM);
            f.executing = false;
          } else {
            const name = NAMES[o.name]!;
            const choice = o.scope % (m.frames.length + 1);
            const scope = choice === 0 ? null : m.frames[choice - 1]!.id;
            const actor = { role: 'subagent' as const, binding: name, executionId: scope };
            const stored = m.bindings.get(key(name, scope));
            try {
              await b.call('bind', { run, name, kind: o.kind, value: o.value, executionId: scope }, actor);
              assert.is.not(stored?.kind, 'const', `${key(name, scope)} is const but was rebound`);
              m.bindings.set(key(name, scope), { value: o.value, kind: o.kind });
            } catch (err) {
              if ((err as { code?: string }).code !== 'E_CONST_REBIND') throw err;
              assert.is(
                stored?.kind,
                'const',
                `E_CONST_REBIND for ${key(name, scope)}, which holds ${JSON.stringify(stored)}`,
              );
            }
          }
        }
        await resolveAll(b, run, m);
      } finally {
        await b.close();
        await factory.dispose?.(env);
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { numRuns },
  );
}

test('filesystem: random binds over random frames, then resolve from every scope, agree with the scope-chain model', async () => {
  await checkAgainstModel(filesystemFactory, 60);
});

// The same model on the SQL layout (pg-mem), so the two backends are held to one meaning of scope resolution.
test('postgres (pg-mem): the same random histories agree with the same model', async () => {
  // decision pg-nul refuses U+0000 in values; a backslash before white space is a known pg-mem bug (E_BACKEND,
  // case hostile-input/backslash-space-in-text), kept out here so this property checks scope resolution only.
  const storable = (o: Op) => o.op !== 'bind' || !/\0|\\\s/u.test(o.value);
  await checkAgainstModel(postgresMemFactory, 25, fc.array(opArb.filter(storable), { maxLength: 14 }));
});

test.run();
