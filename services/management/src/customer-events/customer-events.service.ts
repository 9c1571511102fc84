import { decodeCustomerSeenEvent, ProjectionDecodeError } from '@trackline/contracts';
import { ValidationError } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type {
  CustomerSeenOutcome,
  CustomerSeenRow,
  CustomerSighting,
  CustomersStore,
} from '../customers/customers.store';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import { customerSeenValues, custnrProblem } from './customer-seen-values';

/** The partner whose stream an entry came from. */
export interface StreamPartner {
  id: string;
  /** The advId, also in the stream's key. */
  name: string;
}

export type CustomerEventResult =
  /** Cannot ever be applied: the consumer acks it so it is not retried forever. */
  | { kind: 'malformed'; problem: string }
  | { kind: 'applied'; custnr: string; outcome: CustomerSeenOutcome; rejected: string[] };

/**
 * What applying a batch writes, in one transaction. Another write that must commit with the
 * customers a batch created joins this unit and reads the `created` rows of upsertSeenMany.
 */
export interface CustomerSightingStores {
  customers: Pick<CustomersStore, 'upsertSeenMany'>;
  /** `customer.created` for each customer the batch created (docs/webhooks.md). */
  webhooks: WebhookEventQueue;
}

type Decoded =
  { kind: 'malformed'; problem: string } | { kind: 'valid'; sighting: CustomerSighting; rejected: string[] };

/** Applies customer-seen stream entries (docs/redis-keys.md "Customer-seen stream") to the partner's customers. */
export class CustomerEventsService {
  constructor(private readonly sightings: UnitOfWork<CustomerSightingStores>) {}

  /** One entry: a batch of one. */
  async apply(partner: StreamPartner, fields: readonly string[]): Promise<CustomerEventResult> {
    const [result] = await this.applyBatch(partner, [fields]);
    return result!;
  }

  /**
   * Entries of one partner's stream, in stream order: one transaction with one upsert statement for
   * all of them. Resolves, with one result per entry, once the change is committed, so the caller
   * may ack them all; rejects when the database fails, and every entry must stay pending. An entry
   * whose values the database can never store is found by applying the batch's entries one by one
   * and is reported malformed; the others are applied.
   */
  async applyBatch(
    partner: StreamPartner,
    batch: ReadonlyArray<readonly string[]>,
  ): Promise<CustomerEventResult[]> {
    const decoded = batch.map((fields) => decode(partner, fields));
    const valid = decoded.flatMap((entry) => (entry.kind === 'valid' ? [entry.sighting] : []));
    let outcomes: Map<string, CustomerSeenOutcome | { problem: string }>;
    try {
      outcomes = byCustnr(await this.upsert(partner, valid));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      outcomes = await this.applyOneByOne(partner, valid);
    }
    return decoded.map((entry): CustomerEventResult => {
      if (entry.kind === 'malformed') return entry;
      const { custnr } = entry.sighting;
      const outcome = outcomes.get(custnr) ?? 'unchanged';
      if (typeof outcome !== 'string') return { kind: 'malformed', problem: outcome.problem };
      return { kind: 'applied', custnr, outcome, rejected: entry.rejected };
    });
  }

  private upsert(partner: StreamPartner, sightings: CustomerSighting[]): Promise<CustomerSeenRow[]> {
    if (sightings.length === 0) return Promise.resolve([]);
    return this.sightings.run(async ({ customers, webhooks }) => {
      const rows = await customers.upsertSeenMany(partner.id, sightings);
      const created = rows.filter((row) => row.outcome === 'created');
      if (created.length > 0) {
        await webhooks.enqueue(
          partner.id,
          created.map((row) => ({ type: 'customer.created', customerId: row.id })),
        );
      }
      return rows;
    });
  }

  private async applyOneByOne(
    partner: StreamPartner,
    sightings: CustomerSighting[],
  ): Promise<Map<string, CustomerSeenOutcome | { problem: string }>> {
    const outcomes = new Map<string, CustomerSeenOutcome | { problem: string }>();
    for (const sighting of sightings) {
      try {
        const [row] = await this.upsert(partner, [sighting]);
        // A custnr seen again in the batch keeps the strongest outcome (created over updated).
        const earlier = outcomes.get(sighting.custnr);
        if (earlier !== 'created' && row !== undefined) outcomes.set(sighting.custnr, row.outcome);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        outcomes.set(sighting.custnr, { problem: error.message });
      }
    }
    return outcomes;
  }
}

function decode(partner: StreamPartner, fields: readonly string[]): Decoded {
  let event;
  try {
    event = decodeCustomerSeenEvent(fields);
  } catch (error) {
    if (error instanceof ProjectionDecodeError) return { kind: 'malformed', problem: error.message };
    throw error;
  }
  // Streams are per partner; an entry naming another partner was not written by the allocation script.
  if (event.advId !== partner.name) {
    return {
      kind: 'malformed',
      problem: `adv_id ${JSON.stringify(event.advId)} on the stream of ${partner.name}`,
    };
  }
  const badCustnr = custnrProblem(event.custnr);
  if (badCustnr !== undefined) return { kind: 'malformed', problem: badCustnr };
  const { seen, rejected } = customerSeenValues(event);
  return { kind: 'valid', sighting: { custnr: event.custnr, seen }, rejected };
}

function byCustnr(rows: CustomerSeenRow[]): Map<string, CustomerSeenOutcome> {
  return new Map(rows.map((row) => [row.custnr, row.outcome]));
}
