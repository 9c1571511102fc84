import { decodeCustomerSeenEvent, ProjectionDecodeError } from '@trackline/contracts';
import { ValidationError } from '@trackline/domain';
import type { CustomerSeenOutcome, CustomersStore } from '../customers/customers.store';
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

/** Applies one customer-seen stream entry (SPEC §3) to the partner's customers. */
export class CustomerEventsService {
  constructor(private readonly customers: Pick<CustomersStore, 'upsertSeen'>) {}

  /**
   * Resolves once the change is committed (one statement, its own transaction), so the caller may ack
   * then; rejects when the database fails, and the entry must stay pending.
   */
  async apply(partner: StreamPartner, fields: readonly string[]): Promise<CustomerEventResult> {
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
    let outcome: CustomerSeenOutcome;
    try {
      outcome = await this.customers.upsertSeen(partner.id, event.custnr, seen);
    } catch (error) {
      if (error instanceof ValidationError) return { kind: 'malformed', problem: error.message };
      throw error;
    }
    return { kind: 'applied', custnr: event.custnr, outcome, rejected };
  }
}
