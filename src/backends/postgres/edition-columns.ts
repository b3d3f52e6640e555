import type { Edition } from '../../core/editions.ts';

/** The columns whose names the two editions' postgres.md spell differently (docs/postgres.md, "Both editions"). */
export interface EditionColumns {
  /** run: the invoked program's path and text. */
  runPath: 'program_path' | 'root_path';
  runSource: 'program_source' | 'root_source';
  /** bindings: input, output, let or const. */
  bindingKind: 'kind' | 'binding';
  /** imports: where the imported program came from. */
  importSource: 'source_url' | 'source_ref';
}

const COLUMNS: Record<Edition, EditionColumns> = {
  // The January text (decision pg-columns).
  v0: { runPath: 'program_path', runSource: 'program_source', bindingKind: 'kind', importSource: 'source_url' },
  // postgres.md "Core Schema" at f12dcda4.
  current: { runPath: 'root_path', runSource: 'root_source', bindingKind: 'binding', importSource: 'source_ref' },
};

export function editionColumns(edition: Edition): EditionColumns {
  return COLUMNS[edition];
}
