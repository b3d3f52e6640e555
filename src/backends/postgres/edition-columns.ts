import { editionLayout, type Edition, type SqlColumns } from '../../core/editions.ts';

/** The columns whose names the two editions' postgres.md spell differently (core/editions.ts, docs/postgres.md). */
export type EditionColumns = SqlColumns;

export function editionColumns(edition: Edition): EditionColumns {
  return editionLayout(edition).sqlColumns;
}
