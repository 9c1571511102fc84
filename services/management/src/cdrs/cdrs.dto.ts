import { parseFlag, parseLocalDate, ValidationError } from '@trackline/domain';
import { Flag, Parsed, Present } from '../validation/field-rules';
import { checkPageParameter, parsePaging } from '../validation/paging';
import { validateDto } from '../validation/validate-dto';
import { isBigintId } from '../validation/record-id';

/** GET /statistics/cdrs query (docs/cdrs.md). */
export interface CdrListQuery {
  customerId: string | null;
  custnr: string | null;
  fromDate: string | null;
  toDate: string | null;
  extended: boolean;
  page: number;
  pageSize: number;
}

/** An empty `customer_id` or `custnr` counts as left out; one of them is required. */
export class CdrListQueryDto {
  @Parsed('optional', (value) => {
    if (value !== '' && !(typeof value === 'string' && isBigintId(value)))
      throw new ValidationError('customer_id', 'must be a customer id (decimal digits)');
  })
  customer_id?: string;

  @Present('optional')
  custnr?: string;

  @Parsed('optional', checkPageParameter('page'))
  page?: string;

  @Parsed('optional', checkPageParameter('pagesize'))
  pagesize?: string;

  @Parsed('optional', (value) => parseLocalDate('from_date', value))
  from_date?: string;

  @Parsed('optional', (value) => parseLocalDate('to_date', value))
  to_date?: string;

  @Flag('optional')
  extended?: string;
}

export function parseCdrListQuery(query: Record<string, string>): CdrListQuery {
  const dto = validateDto(CdrListQueryDto, query, 'is not a known query parameter');
  const customerId = dto.customer_id === undefined || dto.customer_id === '' ? null : dto.customer_id;
  const custnr = dto.custnr === undefined || dto.custnr === '' ? null : dto.custnr;
  if (customerId === null && custnr === null)
    throw new ValidationError('customer_id', 'customer_id or custnr is required');
  const { page, pageSize } = parsePaging(dto);
  return {
    customerId,
    custnr,
    fromDate: dto.from_date === undefined ? null : parseLocalDate('from_date', dto.from_date),
    toDate: dto.to_date === undefined ? null : parseLocalDate('to_date', dto.to_date),
    extended: parseFlag('extended', dto.extended ?? '0'),
    page,
    pageSize,
  };
}
