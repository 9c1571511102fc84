import type { Cdr } from '../cdrs/cdr';
import type { CdrOutcomesStore, CdrReference } from '../cdrs/cdr-outcomes.store';
import { recordNotFound } from '../cdrs/cdr-reference.dto';
import type { ConversionQueue } from '../conversions/conversion-queue';
import type { UnitOfWork } from '../db/unit-of-work';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import { parseOutcomePut, sameOutcome } from './outcome.dto';

/** What posting an outcome writes, in one transaction. */
export interface OutcomeWriteStores {
  records: CdrOutcomesStore;
  webhooks: WebhookEventQueue;
  conversions: Pick<ConversionQueue, 'enqueueOutcome'>;
}

/**
 * GET and PUT /cdrs/:cdrId/outcome and /cdrs/outcome?call_id= (docs/conversions.md, Outcomes). A
 * change stores the outcome, raises `call.outcome` and queues the partner's conversions in one
 * transaction; a PUT that changes nothing answers the record as it is and raises nothing, so a
 * partner may repeat a post safely.
 */
export class OutcomesService {
  constructor(
    private readonly reads: CdrOutcomesStore,
    private readonly writes: UnitOfWork<OutcomeWriteStores>,
  ) {}

  async get(partnerId: string, reference: CdrReference): Promise<Cdr> {
    return found(reference, await this.reads.findRecord(partnerId, reference));
  }

  async put(
    partnerId: string,
    reference: CdrReference,
    body: Record<string, unknown>,
    now: Date,
  ): Promise<Cdr> {
    return this.writes.run(async ({ records, webhooks, conversions }) => {
      const cdr = found(reference, await records.lockRecord(partnerId, reference));
      const next = parseOutcomePut(body, cdr.outcome);
      if (sameOutcome(cdr.outcome, next)) return cdr;
      const updated = await records.setOutcome(cdr, { ...next, at: now });
      await webhooks.enqueue(partnerId, [
        { type: 'call.outcome', cdrId: updated.id, cdrStart: updated.start },
      ]);
      await conversions.enqueueOutcome(updated);
      return updated;
    });
  }
}

// Another partner's record is as unknown as a missing one.
function found(reference: CdrReference, cdr: Cdr | null): Cdr {
  if (cdr !== null) return cdr;
  throw recordNotFound(reference);
}
