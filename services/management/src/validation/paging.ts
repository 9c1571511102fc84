import { ValidationError } from '@trackline/domain';

/** Default and largest page of the paged lists (seed "Paged responses": pagesize default 1000). */
export const MAX_PAGE_SIZE = 1000;
const MAX_PAGE = 999_999_999;

export interface Paging {
  /** 0 is the first page. */
  page: number;
  pageSize: number;
}

/** `page` and `pagesize` of a paged list (sources, statistics/cdrs), one rule for all of them. */
export function parsePaging(query: { page?: string; pagesize?: string }): Paging {
  return {
    page: query.page === undefined ? 0 : wholeNumber('page', query.page, 0, MAX_PAGE),
    pageSize:
      query.pagesize === undefined
        ? MAX_PAGE_SIZE
        : wholeNumber('pagesize', query.pagesize, 1, MAX_PAGE_SIZE),
  };
}

/** The page parameters' own check, for a DTO field (`@Parsed('optional', checkPageParameter('page'))`). */
export function checkPageParameter(field: 'page' | 'pagesize'): (value: unknown) => void {
  return (value) => {
    if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
    parsePaging({ [field]: value });
  };
}

function wholeNumber(field: string, value: string, min: number, max: number): number {
  const number = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max))
    throw new ValidationError(field, `must be a whole number from ${min} to ${max}`);
  return number;
}
