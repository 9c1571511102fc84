import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPOSITORY_ROOT } from '../rules-file';

export const OPERATIONS_DOC = path.join(REPOSITORY_ROOT, 'docs', 'operations.md');

export type ServiceName = 'replacement' | 'management';

/** Metric name → type, from one service's table in docs/operations.md, Metrics. */
export type MetricTable = Map<string, string>;

/**
 * The tables under "**Replacement service**" and "**Management service**" in the Metrics section:
 * the first column holds the name in backticks, the second the type.
 */
export function documentedMetrics(
  markdown = readFileSync(OPERATIONS_DOC, 'utf8'),
): Record<ServiceName, MetricTable> {
  const section = sectionText(markdown, '## Metrics');
  return {
    replacement: tableAfter(section, '**Replacement service**'),
    management: tableAfter(section, '**Management service**'),
  };
}

function sectionText(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`docs/operations.md has no "${heading}" section`);
  const end = markdown.indexOf('\n## ', start + heading.length + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

function tableAfter(section: string, title: string): MetricTable {
  const at = section.indexOf(`\n${title}\n`);
  if (at === -1) throw new Error(`docs/operations.md, Metrics, has no ${title} table`);
  const table: MetricTable = new Map();
  const lines = section.slice(at + title.length + 2).split('\n');
  let started = false;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      if (started) break;
      continue;
    }
    started = true;
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([a-z_:][a-z0-9_:]*)`$/.exec(cells[1] ?? '')?.[1];
    if (name !== undefined) table.set(name, cells[2] ?? '');
  }
  return table;
}

/** Metric name → type from the `# TYPE` lines of a Prometheus text exposition. */
export function exportedMetrics(exposition: string): MetricTable {
  const table: MetricTable = new Map();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) table.set(match[1]!, match[2]!);
  return table;
}

/**
 * prom-client's default process and Node.js metrics: docs/operations.md names them as a family
 * rather than one by one, since the library decides the list.
 */
export function isDefaultMetric(name: string): boolean {
  return name.startsWith('process_') || name.startsWith('nodejs_');
}
