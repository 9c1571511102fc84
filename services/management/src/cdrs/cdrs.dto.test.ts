import { ValidationError } from '@trackline/domain';
import { parseCdrListQuery } from './cdrs.dto';

function refusal(parse: () => unknown): { field: string; rule: string } {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { field: (error as ValidationError).field, rule: (error as ValidationError).rule };
  }
  throw new Error('was accepted');
}

describe('parseCdrListQuery', () => {
  it('reads the filters and the page', () => {
    expect(parseCdrListQuery({ custnr: 'c1', customer_id: '', extended: '1', page: '2' })).toEqual({
      customerId: null,
      custnr: 'c1',
      fromDate: null,
      toDate: null,
      extended: true,
      page: 2,
      pageSize: 1000,
    });
  });

  it.each([
    [{ custnr: 'c1', colour: 'red' }, 'colour', 'is not a known query parameter'],
    [{ customer_id: '', custnr: '' }, 'customer_id', 'customer_id or custnr is required'],
    [{ customer_id: 'x' }, 'customer_id', 'must be a customer id (decimal digits)'],
    [{ custnr: 'c1', pagesize: '0' }, 'pagesize', 'must be a whole number from 1 to 1000'],
    [{ custnr: 'c1', extended: 'yes' }, 'extended', 'must be "0" or "1"'],
  ])('refuses %j naming %s', (query, field, rule) => {
    expect(refusal(() => parseCdrListQuery(query))).toEqual({ field, rule });
  });
});
