import { formatUtcTimestamp, renderFlag } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import type { CdrChangeEntry } from './cdr-changes.store';
import { parseCdrChangesQuery } from './cdr-changes.dto';
import type { CdrChangesService } from './cdr-changes.service';
import { encodeFeedCursor } from './cdr-feed-cursor';
import { toCdrRecord } from './cdr-record';

export const CDR_CHANGE_NAMES: ResourceNames = { plural: 'cdr_changes', singular: 'cdr_change' };

/** GET /cdrs/changes (docs/cdrs.md, Change feed). */
export function cdrChangeRoutes(service: CdrChangesService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/cdrs/changes',
      handle: async ({ partner, query }) => {
        const page = await service.page(partner.id, parseCdrChangesQuery(query));
        return {
          kind: 'cursor',
          names: CDR_CHANGE_NAMES,
          records: page.changes.map((change) => toCdrChangeRecord(change, partner.showFullAnum)),
          nextCursor: encodeFeedCursor(page.next),
          more: page.more,
        };
      },
    },
  ];
}

/**
 * A change with the record as `GET /statistics/cdrs?extended=1` renders it now, or, once the record
 * is gone, a tombstone: `deleted` 1 and `cdr` null.
 */
export function toCdrChangeRecord(change: CdrChangeEntry, showFullAnum: boolean): ApiRecord {
  return {
    change_id: change.position.id,
    changed_at: formatUtcTimestamp(change.changedAt),
    change: change.kind,
    cdr_id: change.cdrId,
    deleted: renderFlag(change.cdr === null),
    cdr: change.cdr === null ? null : toCdrRecord(change.cdr, { extended: true, showFullAnum }),
  };
}
