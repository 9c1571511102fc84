import type { EntityManager } from 'typeorm';
import type { Cdr } from '../cdrs/cdr';
import { TypeormIntegrationsStore } from '../integrations/integrations.store';
import { TypeormConversionOutboxStore } from './conversion-outbox.store';
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

/** The queue bound to a transaction's EntityManager. */
export function conversionQueue(manager: EntityManager): ConversionQueue {
  const integrations = new TypeormIntegrationsStore(manager);
  const outbox = new TypeormConversionOutboxStore(manager);
  const queue = async (cdr: Cdr, plan: typeof callConversions | typeof outcomeConversions) => {
    if (!hasMarketingIds(cdr)) return;
    await outbox.enqueue(cdr.partnerId, cdr.id, plan(cdr, await integrations.list(cdr.partnerId)));
  };
  return {
    enqueueCall: (cdr) => queue(cdr, callConversions),
    enqueueOutcome: (cdr) => queue(cdr, outcomeConversions),
  };
}
