import type { CdrChangeEntry, TypeormCdrChangesStore } from './cdr-changes.store';
import type { CdrChangesQuery } from './cdr-changes.dto';
import type { CdrFeedPosition } from './cdr-feed-cursor';

export interface CdrChangesPage {
  changes: CdrChangeEntry[];
  /** Where the next request starts: after the last change answered, else where this one started. */
  next: CdrFeedPosition;
  /** The page is full: more changes may be there already. */
  more: boolean;
}

/** GET /cdrs/changes (docs/cdrs.md, Change feed): the partner's changes after its cursor. */
export class CdrChangesService {
  constructor(private readonly store: Pick<TypeormCdrChangesStore, 'changesAfter'>) {}

  async page(partnerId: string, query: CdrChangesQuery): Promise<CdrChangesPage> {
    const changes = await this.store.changesAfter(partnerId, query.after, query.limit);
    const last = changes.at(-1);
    return {
      changes,
      next: last === undefined ? query.after : last.position,
      more: changes.length === query.limit,
    };
  }
}
