import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { FsStore } from '../../backends/filesystem/fs-store.ts';
import { RunPaths } from '../../backends/filesystem/run-paths.ts';
import type { BackendEnv } from '../../core/backend.ts';
import { formatBindingFile } from '../../core/formats/binding-file.ts';
import type { StateStore, WorldModelStore } from '../../core/store.ts';
import { mkdirDurable, syncDir, writeFileAtomic } from '../../io/atomic-write.ts';
import { mutant, type Mutant } from '../mutant.ts';

type WriteFile = (path: string, bytes: string) => void;

/**
 * Write-ordering bugs a kill at a random moment almost never lands inside (their window is a few system calls):
 * the crash-states area must kill each, since it checks the state between every two of those calls.
 */
export const CRASH_ORDERING_MUTANTS: Mutant[] = [
  mutant(
    'binding-written-in-place',
    'a binding file is opened with O_TRUNC and written over, not written to a temp file and renamed',
    {
      store: (_base, env) => ({ writeBinding: bindingWriter(env, inPlace(false), 'attachment-first') }),
    },
  ),
  mutant(
    'binding-before-attachment',
    'a large binding file is written (atomically) before the attachment it points to',
    {
      store: (_base, env) => ({ writeBinding: bindingWriter(env, writeFileAtomic, 'binding-first') }),
    },
  ),
  mutant(
    'published-pointer-before-version',
    "a world-model commit flips the node's published pointer (.version) before the version's bytes are written",
    { store: (base, env) => ({ worldModel: pointerFirst(base, env) }) },
  ),
  mutant(
    'binding-written-in-place-slowly',
    'a binding file is written over in place with an fsync after the truncating open and after the write (a wider window)',
    { store: (_base, env) => ({ writeBinding: bindingWriter(env, inPlace(true), 'attachment-first') }) },
  ),
];

/** Opens `path` with O_TRUNC and writes it in place; `slow`: an fsync after the open and after the write. */
function inPlace(slow: boolean): WriteFile {
  return (path, text) => {
    const fd = openSync(path, 'w');
    try {
      if (slow) fsyncSync(fd);
      writeSync(fd, text);
      if (slow) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
}

/** The reference writeBinding with its file writer and the order of binding and attachment swapped in. */
function bindingWriter(
  env: BackendEnv,
  write: WriteFile,
  order: 'attachment-first' | 'binding-first',
): StateStore['writeBinding'] {
  return async (run, b, attach) => {
    const dir = new RunPaths(env.projectDir, env.homeDir).runDir(run);
    const fileName = RunPaths.bindingFile(b.name, b.executionId);
    const attachmentRel = `attachments/${fileName}`;
    const file = join(dir, 'bindings', fileName);
    const text = formatBindingFile({
      name: b.name,
      kind: b.kind,
      executionId: b.executionId,
      source: b.source ?? '',
      value: attach ? `(attached: ${Buffer.byteLength(b.value, 'utf8')} bytes in ${attachmentRel})` : b.value,
      ...(attach ? { attachment: attachmentRel } : {}),
    });
    const writeAttachment = () => {
      if (attach) writeFileAtomic(join(dir, attachmentRel), b.value);
    };
    if (order === 'attachment-first') writeAttachment();
    mkdirDurable(join(dir, 'bindings'));
    write(file, text);
    syncDir(join(dir, 'bindings'));
    if (order === 'binding-first') writeAttachment();
    // As the reference does: a value that shrank below the threshold no longer needs its old attachment. Without
    // it the mutants failed an ordinary case (attachment-thresholds/shrinking-removes-attachment) before any crash.
    if (!attach) rmSync(join(dir, attachmentRel), { force: true });
    return { location: relative(env.projectDir, file).split(sep).join('/') };
  };
}

/** The reference world-model store, except that publishing writes `.version` before the version it names. */
function pointerFirst(base: FsStore, env: BackendEnv): WorldModelStore {
  const real = base.worldModel!;
  const pending = new Map<string, Uint8Array>();
  const key = (run: unknown, node: string, address: string) => `${JSON.stringify(run)} ${node} ${address}`;
  const store: WorldModelStore = Object.create(real);
  store.writeVersion = async (run, node, address, bytes) => {
    pending.set(key(run, node, address), bytes);
  };
  store.readVersion = async (run, node, address) =>
    pending.get(key(run, node, address)) ?? real.readVersion(run, node, address);
  store.publish = async (run, node, address) => {
    const dir = join(new RunPaths(env.projectDir, env.homeDir).runDir(run), 'world-model', node);
    writeFileAtomic(join(dir, '.version'), `${address}\n`);
    const bytes = pending.get(key(run, node, address));
    if (bytes) await real.writeVersion(run, node, address, bytes);
    pending.delete(key(run, node, address));
    await real.publish(run, node, address);
  };
  return store;
}
