import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../backends/sqlite/index.ts';
import { ProseError } from '../../core/errors.ts';
import type { BindingRecord, ExecutionId, RunRef } from '../../core/model.ts';
import { runsDir } from '../../core/seed-layout.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';
import { runFileOf, sqliteMutant } from '../sqlite-mutant.ts';

/** Frame-scoped rows keyed by a number of the backend's own instead of the frame's execution id. */
const OFFSET = 1000;
const shift = (id: ExecutionId | null) => (id === null ? null : id + OFFSET);
const unshift = (b: BindingRecord | undefined) =>
  b && { ...b, executionId: b.executionId === null ? null : b.executionId - OFFSET };

class OffsetIdStore extends SqliteStore {
  override writeBinding(run: RunRef, b: BindingRecord, attach: boolean) {
    return super.writeBinding(run, { ...b, executionId: shift(b.executionId) }, attach);
  }
  override async readBinding(run: RunRef, name: string, id: ExecutionId | null) {
    return unshift(await super.readBinding(run, name, shift(id)));
  }
  // Walks the chain itself, so resolve still answers right: only the rows a VM would query are wrong.
  override async resolveBinding(run: RunRef, name: string, chain: (ExecutionId | null)[]) {
    for (const id of chain) {
      const b = await this.readBinding(run, name, id);
      if (b) return b;
    }
    return undefined;
  }
  override async listBindings(run: RunRef) {
    return (await super.listBindings(run)).map((b) => unshift(b)!);
  }
}

/** Reads the row's value (the seed's summary) where the row names an attachment, instead of the attachment file. */
class SummaryValueStore extends SqliteStore {
  private async rowValue(run: RunRef, b: BindingRecord | undefined): Promise<BindingRecord | undefined> {
    const view = this.storage();
    if (!b?.attached || view.kind !== 'sqlite') return b;
    const rows = await view.query(
      `.prose/runs/${run}/state.db`,
      'SELECT value FROM bindings WHERE name = ? AND IFNULL(execution_id, -1) = IFNULL(?, -1)',
      [b.name, b.executionId],
    );
    return { ...b, value: String(rows[0]?.value ?? '') };
  }
  override async readBinding(run: RunRef, name: string, id: ExecutionId | null) {
    return this.rowValue(run, await super.readBinding(run, name, id));
  }
  override async resolveBinding(run: RunRef, name: string, chain: (ExecutionId | null)[]) {
    return this.rowValue(run, await super.resolveBinding(run, name, chain));
  }
}

class NoFetchedAtStore extends SqliteStore {
  override async createImport(
    parent: RunRef,
    handle: string,
    slug: string,
    rec: Parameters<SqliteStore['createImport']>[3],
  ) {
    const ref = await super.createImport(parent, handle, slug, rec);
    await (await runFileOf(this, parent)).write((db) => db.exec('UPDATE imports SET fetched_at = NULL'));
    return ref;
  }
}

/** The imports row names the import by its alias in source_url too, instead of the fetch URL the seeds show. */
class AliasAsSourceStore extends SqliteStore {
  override async createImport(
    parent: RunRef,
    handle: string,
    slug: string,
    rec: Parameters<SqliteStore['createImport']>[3],
  ) {
    const ref = await super.createImport(parent, handle, slug, rec);
    await (await runFileOf(this, parent)).write((db) => db.exec('UPDATE imports SET source_url = alias'));
    return ref;
  }
}

// Our own earlier metadata keys, which the backend still reads, so resume stays right and only the seed's
// json_extract queries (max_iterations, current_iteration, retry_attempt, max_retries) come back empty.
const OWN_KEYS = [
  ['max_iterations', 'max'],
  ['current_iteration', 'iteration'],
  ['retry_attempt', 'attempt'],
  ['max_retries', 'max'],
] as const;
const OWN_KEYS_SQL = OWN_KEYS.map(
  ([seed, own]) =>
    `UPDATE execution SET metadata = json_remove(json_set(metadata, '$.${own}', json_extract(metadata, '$.${seed}')), ` +
    `'$.${seed}') WHERE json_extract(metadata, '$.${seed}') IS NOT NULL;`,
).join('\n');

class OwnMetadataKeysStore extends SqliteStore {
  private async rewrite(run: RunRef) {
    await (await runFileOf(this, run)).write((db) => db.exec(OWN_KEYS_SQL));
  }
  override async appendEvent(run: RunRef, event: Parameters<SqliteStore['appendEvent']>[1]) {
    await super.appendEvent(run, event);
    await this.rewrite(run);
  }
  override async appendEventAtomically(run: RunRef, make: Parameters<SqliteStore['appendEventAtomically']>[1]) {
    const event = await super.appendEventAtomically(run, make);
    await this.rewrite(run);
    return event;
  }
}

/** What the filesystem backend wrote itself per storage; memory found on disk otherwise was written by someone else. */
const ownMemory = new Map<string, Set<string>>();

/**
 * Seed-written state (issue: a backend must read what a VM following the seeds writes) and the SQL layouts row by
 * row. The filesystem mutants refuse state they did not write; the sqlite mutants keep behaviour right and get the
 * rows or files a VM would query wrong.
 */
export const SEED_STATE_MUTANTS: Mutant[] = [
  mutant(
    'seed-state-md-refused',
    'resume refuses the seed\'s own state.md (no "## Event Log"), reading only the format the backend writes',
    {
      intercept: async (op, args, actor, ctx) => {
        if (typeof args.run === 'string') {
          let text = '';
          try {
            text = readFileSync(join(runsDir(ctx.env.projectDir), args.run, 'state.md'), 'utf8');
          } catch {
            /* no run: the real call answers */
          }
          if (text && !text.includes('## Event Log'))
            throw new ProseError('E_CORRUPT', 'state.md has no "## Event Log" section');
        }
        return pass(op, args, actor, ctx);
      },
    },
  ),
  mutant(
    'seed-memory-unseen',
    'readMemory only finds memory written through the backend, not a memory.md a persistent agent wrote itself',
    {
      intercept: async (op, args, actor, ctx) => {
        const own =
          ownMemory.get(ctx.env.storageKey) ?? ownMemory.set(ctx.env.storageKey, new Set()).get(ctx.env.storageKey)!;
        const key = `${String(args.agent)}\0${String(args.scope)}\0${String(args.run ?? '')}\0${String(args.path ?? '')}`;
        if (op === 'writeMemory') own.add(key);
        if (op === 'readMemory' && !own.has(key))
          throw new ProseError('E_NOT_FOUND', `no memory for agent ${String(args.agent)}`);
        return pass(op, args, actor, ctx);
      },
    },
  ),
  sqliteMutant(
    'sqlite-source-dropped',
    'the bindings row keeps no source_statement',
    (env) =>
      new (class extends SqliteStore {
        override writeBinding(run: RunRef, b: BindingRecord, attach: boolean) {
          return super.writeBinding(run, { ...b, source: undefined } as BindingRecord, attach);
        }
      })(env.projectDir, env.homeDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-frame-id-offset',
    "frame-scoped bindings rows carry a number of the backend's own, not the frame's execution id (resolve still walks the chain right)",
    (env) => new OffsetIdStore(env.projectDir, env.homeDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-user-agents-in-project',
    "user-scope agents go to the project's .prose/agents.db instead of ~/.prose/agents.db",
    (env) => new SqliteStore(env.projectDir, env.projectDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-large-values-inline',
    'a value over the attachment threshold stays in the bindings row; no file is written to attachments/',
    (env) =>
      new (class extends SqliteStore {
        override writeBinding(run: RunRef, b: BindingRecord) {
          return super.writeBinding(run, b, false);
        }
      })(env.projectDir, env.homeDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-attachment-unread',
    "resolve answers the row's value (the seed's summary) where the row names an attachment file",
    (env) => new SummaryValueStore(env.projectDir, env.homeDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-import-no-fetched-at',
    'the imports row has no fetched_at',
    (env) => new NoFetchedAtStore(env.projectDir, env.homeDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-import-source-is-alias',
    'the imports row holds the {handle}--{slug} alias in source_url instead of the fetch URL',
    (env) => new AliasAsSourceStore(env.projectDir, env.homeDir, env.decisions),
  ),
  sqliteMutant(
    'sqlite-metadata-own-keys',
    "loop and retry rows carry the backend's own metadata keys (max, iteration, attempt) instead of sqlite.md's",
    (env) => new OwnMetadataKeysStore(env.projectDir, env.homeDir, env.decisions),
  ),
];
