import { ValidationError } from '@trackline/domain';
import { Parsed } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import { decodeFeedCursor, type CdrFeedPosition } from './cdr-feed-cursor';

/** Changes per answer when `limit` is left out, and the most one answer holds (docs/cdrs.md, Change feed). */
export const FEED_LIMIT_DEFAULT = 100;
export const FEED_LIMIT_MAX = 1000;

export interface CdrChangesQuery {
  after: CdrFeedPosition;
  limit: number;
}

/** GET /cdrs/changes: `cursor` and `limit`, nothing else. */
export class CdrChangesQueryDto {
  @Parsed('optional', (value) => decodeFeedCursor('cursor', textOf('cursor', value)))
  cursor?: string;

  @Parsed('optional', (value) => parseLimit(textOf('limit', value)))
  limit?: string;
}

export function parseCdrChangesQuery(query: Record<string, string>): CdrChangesQuery {
  const dto = validateDto(CdrChangesQueryDto, query, 'is not a known query parameter');
  return {
    after: decodeFeedCursor('cursor', dto.cursor ?? ''),
    limit: dto.limit === undefined ? FEED_LIMIT_DEFAULT : parseLimit(dto.limit),
  };
}

function parseLimit(value: string): number {
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= FEED_LIMIT_MAX))
    throw new ValidationError('limit', `must be a whole number from 1 to ${FEED_LIMIT_MAX}`);
  return limit;
}

function textOf(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  return value;
}
