import { formatUtcTimestamp, NotFoundError, ValidationError } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type { PartnersStore } from '../partners/partners.store';
import type { NumberInventoryListener } from './number-inventory-listener';
import type { NumberRemovalStore } from './numbers.store';
import type { PoolBindingsReader } from './pool-bindings.reader';
import { quarantineEnd } from './tracking-number';

export interface NumberRemovalStores {
  numbers: NumberRemovalStore;
}

/**
 * Takes a number out of a partner's inventory for good (docs/carrier-numbers.md, Releasing): never
 * while calls to it still reach something of the partner's — an open source's destnr, a closed
 * source's number in its hold-back, a pool number with a live binding — and quarantined for the
 * partner afterwards. The inventory changes only when `release` (the carrier's part) succeeds.
 */
export class NumberRemoval {
  constructor(
    private readonly partners: Pick<PartnersStore, 'findById'>,
    private readonly writes: UnitOfWork<NumberRemovalStores>,
    /** Told after the commit (the Redis projections drop the number). */
    private readonly listeners: readonly NumberInventoryListener[],
    /** Live pool bindings; absent without Redis, when pool numbers cannot be removed. */
    private readonly bindings?: PoolBindingsReader,
  ) {}

  /** Returns the end of the quarantine. */
  async remove(partnerId: string, e164: string, now: Date, release: () => Promise<void>): Promise<Date> {
    const partner = await this.partners.findById(partnerId);
    if (partner === null) throw new NotFoundError(`partner ${partnerId}`);
    const until = quarantineEnd(now);
    // The row stays locked while the carrier is asked: no source can take the number meanwhile, and
    // a carrier failure rolls back to the inventory as it was.
    await this.writes.run(async ({ numbers }) => {
      const row = await numbers.lockForRemoval(partnerId, e164);
      if (row === null) throw new NotFoundError(`number ${e164} in the inventory of partner ${partner.name}`);
      const source = await numbers.sourceUsing(partnerId, e164);
      if (source !== null)
        throw refused(
          e164,
          `is the destnr of open source ${source}; close the source first and release it after its hold-back`,
        );
      if (row.heldUntil !== null && row.heldUntil > now)
        throw refused(
          e164,
          `is held back until ${formatUtcTimestamp(row.heldUntil)} UTC after its source closed (calls still reach the source)`,
        );
      if (row.kind === 'pool') {
        if (this.bindings === undefined) throw new Error('pool numbers cannot be released without Redis');
        if ((await this.bindings.boundNumbers(partner.name, now)).includes(e164))
          throw refused(
            e164,
            'has a live binding (a visitor session or its hold-back); try again when it ended',
          );
      }
      await release();
      await numbers.removeAndQuarantine(partnerId, e164, now, until);
    });
    for (const listener of this.listeners) await listener.numbersChanged(partnerId);
    return until;
  }
}

function refused(e164: string, rule: string): ValidationError {
  return new ValidationError('number', `${e164} ${rule}; nothing released`);
}
