import type { paths } from './management';

type SourcesPage = paths['/sources']['get']['responses'][200]['content']['application/json'];

export function trackingNumbers(page: SourcesPage): { total: number; numbers: string[] } {
  return { total: page.total, numbers: page.sources.map((source) => source.destnr) };
}
