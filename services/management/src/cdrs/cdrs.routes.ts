import type { RouteDefinition } from '../http/route-definition';
import { CDR_NAMES, toCdrRecord } from './cdr-record';
import { parseCdrListQuery } from './cdrs.dto';
import type { CdrsService } from './cdrs.service';

/** GET /statistics/cdrs (seed "Operations"): paged, ordered by start. */
export function cdrRoutes(service: CdrsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/statistics/cdrs',
      handle: async ({ partner, query }) => {
        const listQuery = parseCdrListQuery(query);
        const { cdrs, total } = await service.list(partner, listQuery);
        const options = { extended: listQuery.extended, showFullAnum: partner.showFullAnum };
        return {
          kind: 'paged',
          names: CDR_NAMES,
          records: cdrs.map((cdr) => toCdrRecord(cdr, options)),
          total,
          page: listQuery.page,
          pageSize: listQuery.pageSize,
        };
      },
    },
  ];
}
