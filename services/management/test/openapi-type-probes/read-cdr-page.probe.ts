import type { paths } from './management';

type CdrPage = paths['/statistics/cdrs']['get']['responses'][200]['content']['application/json'];
type CdrQuery = paths['/statistics/cdrs']['get']['parameters']['query'];

export const query: CdrQuery = { customer_id: '1', from_date: '2025-03-14', to_date: '2025-03-15', page: 0 };

export function answeredCalls(page: CdrPage): { pages: number; answered: string[] } {
  return {
    pages: page.numpages,
    answered: page.cdrs
      .filter((cdr) => cdr.answered === '1')
      .map((cdr) => `${cdr.cdr_id} ${cdr.start} ${cdr.anum}`),
  };
}
