/**
 * Where an import is fetched from, as in-context.md shows it ("Importing: @alice/research / Fetching from:
 * https://p.prose.md/@alice/research"); the SQL backends store it in imports.source_url (decision sql-import-alias).
 */
export function importSourceUrl(handle: string, slug: string): string {
  return `https://p.prose.md/@${encodeURIComponent(handle)}/${encodeURIComponent(slug)}`;
}
