/**
 * Text made safe in a Markdown report: `&`, `<` and `>` as entities, so data can add no HTML (no `<img onerror>`),
 * and a line break as a space, so it cannot start a heading, a list item or a table row of its own.
 */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r\n?|\n/g, ' ');
}
