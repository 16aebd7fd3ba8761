/**
 * The Markdown tables that docs pages carry and tests regenerate: written from rows of cells, and
 * read back from a page by their first header cell, so a test compares cells, never the padding
 * prettier adds.
 */

/** The table as Markdown (before prettier aligns it): the first row is the header. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const [header = [], ...body] = rows;
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/** The cells of the table in `page` whose first header cell is `firstHeaderCell`; [] when none. */
export function markdownTableInPage(page: string, firstHeaderCell: string): string[][] {
  const lines = page.split('\n');
  const cells = (l: string) =>
    l
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const start = lines.findIndex((l) => l.startsWith('|') && cells(l)[0] === firstHeaderCell);
  if (start < 0) return [];
  const rows: string[][] = [];
  // The line after the header is the delimiter row.
  for (let i = start; i < lines.length && (lines[i] as string).startsWith('|'); i++) {
    if (i !== start + 1) rows.push(cells(lines[i] as string));
  }
  return rows;
}
