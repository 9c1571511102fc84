import type { Cdr } from '../cdrs/cdr';
import type { KnownIntegrations } from '../cdrs/cdr-write-stores';
import type { StoredIntegration } from '../integrations/integration';
import type { TypeormIntegrationsStore } from '../integrations/integrations.store';
import type { QueuedConversion, TypeormConversionOutboxStore } from './conversion-outbox.store';
import { callConversions, hasMarketingIds, outcomeConversions } from './conversion-planner';

/**
 * Queues a record's conversions inside the transaction that stores the record or its outcome, so
 * both commit or neither does (docs/conversions.md, Delivery). A record without click or analytics
 * ids costs no query.
 */
export interface ConversionQueue {
  /**
   * The conversions of newly stored records; answers how many were queued. Each partner's
   * integrations are read once, unless `known` has them (the batch's lookup read them already).
   */
  enqueueCalls(cdrs: readonly Cdr[], known?: KnownIntegrations): Promise<number>;
  enqueueOutcome(cdr: Cdr): Promise<void>;
}

/** The queue on a transaction's stores (composition/stores-on-manager.ts builds them). */
export function conversionQueue(stores: {
  integrations: Pick<TypeormIntegrationsStore, 'list'>;
  outbox: Pick<TypeormConversionOutboxStore, 'enqueue' | 'enqueueMany'>;
}): ConversionQueue {
  const { integrations, outbox } = stores;
  const integrationsOf = (partnerId: string) => integrations.list(partnerId);
  return {
    enqueueCalls: async (cdrs, known = () => undefined) => {
      const listed = new Map<string, readonly StoredIntegration[]>();
      const queued: QueuedConversion[] = [];
      for (const cdr of cdrs) {
        if (!hasMarketingIds(cdr)) continue;
        const partnerIntegrations =
          listed.get(cdr.partnerId) ?? known(cdr.partnerId) ?? (await integrationsOf(cdr.partnerId));
        listed.set(cdr.partnerId, partnerIntegrations);
        for (const conversion of callConversions(cdr, partnerIntegrations))
          queued.push({ record: cdr, conversion });
      }
      await outbox.enqueueMany(queued);
      return queued.length;
    },
    enqueueOutcome: async (cdr) => {
      if (!hasMarketingIds(cdr)) return;
      await outbox.enqueue(cdr, outcomeConversions(cdr, await integrationsOf(cdr.partnerId)));
    },
  };
}
