import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CURRENT_SQL_RENAMES, currentSqlName, editionLayout, renamedToCurrent } from '../../src/core/editions.ts';
import { PG_CORE_COLUMNS } from '../../src/verify/postgres/pg-columns.ts';
import { CORE_COLUMNS } from '../../src/verify/state-db/sql-edition.ts';

// The current edition's SQL column names come from one table of renames (CURRENT_SQL_RENAMES): the case variables,
// verify's core columns for sqlite and postgres. Each reader below is checked against the text's names.

test("the case variables: v0's names, and the current text's (sqlite.md and postgres.md Core Schema)", () => {
  assert.equal(editionLayout('v0').sqlColumns, {
    runPath: 'program_path',
    runSource: 'program_source',
    bindingKind: 'kind',
    importSource: 'source_url',
  });
  assert.equal(editionLayout('current').sqlColumns, {
    runPath: 'root_path',
    runSource: 'root_source',
    bindingKind: 'binding',
    importSource: 'source_ref',
  });
});

test('a column the current text does not rename keeps its name, an inherited property name included', () => {
  assert.is(currentSqlName('value'), 'value');
  assert.is(currentSqlName('constructor'), 'constructor');
  assert.is(currentSqlName('fetched_at'), 'resolved_at');
  assert.equal(renamedToCurrent({ t: ['kind', 'name'] }), { t: ['binding', 'name'] });
});

test("verify's current core columns name no column the current text renamed away, on sqlite and postgres", () => {
  const gone = new Set(Object.keys(CURRENT_SQL_RENAMES));
  for (const [engine, tables] of Object.entries({ sqlite: CORE_COLUMNS.current, postgres: PG_CORE_COLUMNS.current }))
    for (const [table, columns] of Object.entries(tables))
      for (const c of columns) assert.not.ok(gone.has(c), `${engine} ${table}.${c} is a v0 name`);
  assert.ok(PG_CORE_COLUMNS.current.bindings!.includes('binding'));
  assert.ok(CORE_COLUMNS.current.imports!.includes('ensures_schema'));
  assert.ok(PG_CORE_COLUMNS.current.receipt, 'the world-model tables are added, not renamed');
});

test.run();
