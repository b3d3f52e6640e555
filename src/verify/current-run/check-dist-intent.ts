import { join } from 'node:path';
import { readBytes } from './read-bytes.ts';
import type { RunSink } from './run-sink.ts';

/**
 * `<openprose-root>/dist/`, where present (decision compiled-intent-names): fs names the compiled intent
 * dist/intent.{next,active}.json, SKILL.md and changelog.md dist/manifest.{next,active}.json. Either is accepted and
 * neither required; both present with different bytes is the one state no reading makes right.
 */
export function checkDistIntent(root: string, sink: RunSink): void {
  for (const stage of ['next', 'active']) {
    const intent = `dist/intent.${stage}.json`;
    const manifest = `dist/manifest.${stage}.json`;
    const a = readBytes(join(root, intent), sink.maxFileBytes);
    const b = readBytes(join(root, manifest), sink.maxFileBytes);
    if ('bytes' in a && 'bytes' in b && !Buffer.from(a.bytes).equals(b.bytes))
      sink.add('root.compiled-intent', `${intent} and ${manifest} hold different bytes; fs names ${intent}`, {
        file: manifest,
      });
  }
}
