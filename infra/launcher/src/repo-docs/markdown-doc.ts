/** A `## ` section of a Markdown document: its heading text and its lines up to the next one. */
export interface MarkdownSection {
  heading: string;
  body: string;
}

export function sections(markdown: string): MarkdownSection[] {
  const found: MarkdownSection[] = [];
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading !== null) found.push({ heading: heading[1], body: '' });
    else if (found.length > 0) found[found.length - 1].body += `${line}\n`;
  }
  return found;
}

/** A table row whose first cell is a `VARIABLE`: its name and the other cells. */
export interface VariableRow {
  name: string;
  cells: string[];
}

export function variableRows(markdown: string): VariableRow[] {
  const rows: VariableRow[] = [];
  for (const line of markdown.split('\n')) {
    const row = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|(.*)\|\s*$/.exec(line);
    if (row === null) continue;
    // `\|` inside a cell is an escaped pipe, not a column break.
    const cells = row[2].split(/(?<!\\)\|/).map((cell) => cell.trim());
    rows.push({ name: row[1], cells });
  }
  return rows;
}

/**
 * Targets of the Markdown links that point into the repository: inline `[text](target)` and
 * reference `[label]: target` links, outside code; web, mail and same-page anchor links left out;
 * the #fragment dropped.
 */
export function relativeLinkTargets(markdown: string): string[] {
  // Inline code spans show paths and URLs as text, not as links.
  const text = withoutFences(markdown).replace(/`[^`\n]*`/g, ' ');
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((match) => match[1]),
  ];
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURI(target.split('#')[0]));
}

/** The document with fenced code blocks blanked out, line count kept (a `## ` or link in one is text). */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(\s*)(```|~~~)[\s\S]*?^\s*\2\s*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}
