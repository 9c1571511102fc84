/** Where the CLI writes; process streams in production, buffers in tests. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

export function processOutput(): CliOutput {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
}

/** Left-aligned columns, a header and one line per row. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
