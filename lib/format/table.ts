/** A plain-text table for the command line: every column as wide as its widest cell, two spaces between columns. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], opts: { align?: readonly ('left' | 'right')[]; indent?: string } = {}): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => (opts.indent ?? '') + widths
    .map((w, i) => (opts.align?.[i] === 'right' ? (cells[i] ?? '').padStart(w) : (cells[i] ?? '').padEnd(w)))
    .join('  ')
    .trimEnd();
  return [line(header), ...rows.map(line)];
}
