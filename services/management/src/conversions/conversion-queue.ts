import type { Cdr } from '../cdrs/cdr';
import type { TypeormIntegrationsStore } from '../integrations/integrations.store';
import type { TypeormConversionOutboxStore } from './conversion-outbox.store';
import { callConversions, hasMarketingIds, outcomeConversions } from './conversion-planner';

/**
 * Queues a record's conversions inside the transaction that stores the record or its outcome, so
 * both commit or neither does (docs/conversions.md, Delivery). A record without click or analytics
 * ids costs no query.
 */
export interface ConversionQueue {
  enqueueCall(cdr: Cdr): Promise<void>;
  enqueueOutcome(cdr: Cdr): Promise<void>;
}

/** The queue on a transaction's stores (composition/stores-on-manager.ts builds them). */
export function conversionQueue(stores: {
  integrations: Pick<TypeormIntegrationsStore, 'list'>;
  outbox: Pick<TypeormConversionOutboxStore, 'enqueue'>;
}): ConversionQueue {
  const { integrations, outbox } = stores;
  const queue = async (cdr: Cdr, plan: typeof callConversions | typeof outcomeConversions) => {
    if (!hasMarketingIds(cdr)) return;
    await outbox.enqueue(cdr.partnerId, cdr.id, plan(cdr, await integrations.list(cdr.partnerId)));
  };
  return {
    enqueueCall: (cdr) => queue(cdr, callConversions),
    enqueueOutcome: (cdr) => queue(cdr, outcomeConversions),
  };
}
