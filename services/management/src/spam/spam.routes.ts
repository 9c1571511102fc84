import { formatUtcTimestamp } from '@trackline/domain';
import type { CdrSpamMarks } from '../cdrs/cdr-spam-mark.service';
import { CDR_NAMES, toCdrRecord } from '../cdrs/cdr-record';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import type { SpamList, SpamNumber } from './spam-lists.store';
import type { SpamListsService } from './spam.service';
import { parseSpamListQuery, parseSpamMark, parseSpamNumber } from './spam.dto';

export const SPAM_NUMBER_NAMES: ResourceNames = { plural: 'spam_numbers', singular: 'spam_number' };

const LISTS: Record<string, SpamList> = { block_list: 'block', allow_list: 'allow' };

/**
 * GET/POST/DELETE /spam/block_list and /spam/allow_list, and PUT /cdrs/:cdrId/spam (docs/spam.md).
 * DELETE names the number in the path (`/spam/block_list/<number>`, URL-encoded).
 */
export function spamRoutes(lists: SpamListsService, marks: CdrSpamMarks): RouteDefinition[] {
  const listRoutes = Object.entries(LISTS).flatMap(([name, list]): RouteDefinition[] => [
    {
      method: 'GET',
      path: `/spam/${name}`,
      handle: async ({ partner, query }) => {
        const paging = parseSpamListQuery(query);
        const { numbers, total } = await lists.page(partner, list, paging);
        return {
          kind: 'paged',
          names: SPAM_NUMBER_NAMES,
          records: numbers.map(toSpamNumberRecord),
          total,
          page: paging.page,
          pageSize: paging.pageSize,
        };
      },
    },
    {
      method: 'POST',
      path: `/spam/${name}`,
      handle: async ({ partner, body }) => ({
        kind: 'records',
        names: SPAM_NUMBER_NAMES,
        records: [toSpamNumberRecord(await lists.put(partner, list, parseSpamNumber(body)))],
      }),
    },
    {
      method: 'DELETE',
      path: `/spam/${name}/:number`,
      handle: async ({ partner, params }) => ({
        kind: 'records',
        names: SPAM_NUMBER_NAMES,
        records: [toSpamNumberRecord(await lists.remove(partner, list, params.number ?? ''))],
      }),
    },
  ]);
  const mark: RouteDefinition = {
    method: 'PUT',
    path: '/cdrs/:cdrId/spam',
    handle: async ({ partner, params, body, now }) => {
      const { cdr } = await marks.mark(partner, params.cdrId ?? '', parseSpamMark(body), now);
      return {
        kind: 'records',
        names: CDR_NAMES,
        records: [toCdrRecord(cdr, { extended: true, showFullAnum: partner.showFullAnum })],
      };
    },
  };
  return [...listRoutes, mark];
}

function toSpamNumberRecord(entry: SpamNumber): ApiRecord {
  return { number: entry.number, list: entry.list, created: formatUtcTimestamp(entry.created) };
}
