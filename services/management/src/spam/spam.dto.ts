import { parseFlag } from '@trackline/domain';
import { Flag, Parsed, Text } from '../validation/field-rules';
import { checkPageParameter, parsePaging, type Paging } from '../validation/paging';
import { validateDto } from '../validation/validate-dto';

/** The longest number text read (the number reader refuses longer input anyway). */
const NUMBER_MAX_LENGTH = 64;

/** POST /spam/block_list and /spam/allow_list. */
export class SpamNumberDto {
  @Text(NUMBER_MAX_LENGTH, 'required')
  number?: string;
}

/** GET of a list: the page, and nothing else. */
export class SpamListQueryDto {
  @Parsed('optional', checkPageParameter('page'))
  page?: string;

  @Parsed('optional', checkPageParameter('pagesize'))
  pagesize?: string;
}

/** PUT /cdrs/<cdr_id>/spam. */
export class SpamMarkDto {
  @Flag('required')
  spam?: string;
}

export function parseSpamNumber(body: Record<string, unknown>): string {
  return validateDto(SpamNumberDto, body).number!;
}

export function parseSpamListQuery(query: Record<string, string>): Paging {
  return parsePaging(validateDto(SpamListQueryDto, query, 'is not a known query parameter'));
}

export function parseSpamMark(body: Record<string, unknown>): boolean {
  return parseFlag('spam', validateDto(SpamMarkDto, body).spam);
}
