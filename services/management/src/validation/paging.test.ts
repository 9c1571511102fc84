import { ValidationError } from '@trackline/domain';
import { MAX_PAGE_SIZE, parsePaging } from './paging';

describe('parsePaging', () => {
  it('defaults to the first page of 1000', () => {
    expect(parsePaging({})).toEqual({ page: 0, pageSize: MAX_PAGE_SIZE });
    expect(MAX_PAGE_SIZE).toBe(1000);
  });

  it('takes whole numbers within bounds', () => {
    expect(parsePaging({ page: '3', pagesize: '1000' })).toEqual({ page: 3, pageSize: 1000 });
    expect(parsePaging({ pagesize: '1' })).toEqual({ page: 0, pageSize: 1 });
  });

  it.each([
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: '' }, 'page'],
    [{ pagesize: '0' }, 'pagesize'],
    [{ pagesize: '1001' }, 'pagesize'],
    [{ pagesize: '1e3' }, 'pagesize'],
  ])('refuses %j naming %s', (query, field) => {
    expect(() => parsePaging(query)).toThrow(ValidationError);
    expect(() => parsePaging(query)).toThrow(new RegExp(`^${field}: must be a whole number from`));
  });
});
