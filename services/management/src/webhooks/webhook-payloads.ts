import type { ApiRecord } from '../http/api-response';
import type { Cdr } from '../cdrs/cdr';
import { toCdrRecord } from '../cdrs/cdr-record';
import type { Customer } from '../customers/customer';
import { toCustomerRecord } from '../customers/customer-record';
import type { Partner } from '../partners/partner';
import { PermanentDeliveryError } from '../notifications/delivery-channel';
import type { PoolTelemetryHour } from '../pool-telemetry/pool-telemetry.store';
import { toPoolHourRecord } from '../pool-telemetry/pool-hour-record';
import { TEST_EVENT_TYPE } from './webhook';
import type { ClaimedWebhookDelivery } from './webhook-deliveries.store';

/** Where bodies are rendered from: each feature's own store. */
export interface WebhookRecordSources {
  /** `start`: the record's, when the delivery kept it (null for rows queued before it was kept). */
  cdrs: { findById(partnerId: string, id: string, start: Date | null): Promise<Cdr | null> };
  customers: { findById(partnerId: string, id: string): Promise<Customer | null> };
  partners: { findById(id: string): Promise<Partner | null> };
  poolHours: { exhaustedHour(partnerId: string, exhaustedAt: Date): Promise<PoolTelemetryHour | null> };
}

/**
 * What the deliveries claimed together read once between them: partners by id, call records by
 * partner and id (a call's events are queued in its transaction, so a claim usually takes them
 * together).
 */
export interface ClaimRound {
  partners: Map<string, Promise<Partner | null>>;
  cdrs: Map<string, Promise<Cdr | null>>;
}

export function newClaimRound(): ClaimRound {
  return { partners: new Map(), cdrs: new Map() };
}

/** The Standard Webhooks body (docs/webhooks.md): `{type, timestamp, data}`. */
export interface WebhookBody {
  type: string;
  /** When the event happened (ISO 8601, UTC); the same on every attempt. */
  timestamp: string;
  data: ApiRecord;
}

/**
 * Renders a delivery's body from the stored record, as the partner API shows it: a call event's
 * `data` is the extended CDR record (attribution and commission; the caller's number masked unless
 * the partner sees it whole), `customer.created`'s the customer record with its custom fields.
 */
export class WebhookPayloads {
  constructor(private readonly sources: WebhookRecordSources) {}

  /**
   * `round` holds what the deliveries claimed together with this one have read: each partner and
   * each call record is read once per claim (as it is at that moment). A call event reads no
   * partner: the claim brought the partner's one setting its record needs, whether the caller is
   * shown whole.
   */
  async body(delivery: ClaimedWebhookDelivery, round: ClaimRound = newClaimRound()): Promise<WebhookBody> {
    return {
      type: delivery.eventType,
      timestamp: delivery.occurredAt.toISOString(),
      data: await this.data(delivery, round),
    };
  }

  private async data(delivery: ClaimedWebhookDelivery, round: ClaimRound): Promise<ApiRecord> {
    if (delivery.eventType === TEST_EVENT_TYPE) {
      return { webhook_id: delivery.webhookId, message: 'A test delivery: this endpoint receives webhooks.' };
    }
    if (delivery.cdrId !== null) {
      // The partner's one setting a record needs came with the claim: no read of the partner.
      const key = `${delivery.partnerId} ${delivery.cdrId}`;
      const read =
        round.cdrs.get(key) ??
        this.sources.cdrs.findById(delivery.partnerId, delivery.cdrId, delivery.cdrStart);
      round.cdrs.set(key, read);
      const cdr = await read;
      if (cdr === null) throw new PermanentDeliveryError(`call record ${delivery.cdrId} no longer exists`);
      return toCdrRecord(cdr, { extended: true, showFullAnum: delivery.showFullAnum });
    }
    const read = round.partners.get(delivery.partnerId) ?? this.sources.partners.findById(delivery.partnerId);
    round.partners.set(delivery.partnerId, read);
    const partner = await read;
    if (partner === null) throw new PermanentDeliveryError(`partner ${delivery.partnerId} no longer exists`);
    if (delivery.customerId !== null) {
      const customer = await this.sources.customers.findById(delivery.partnerId, delivery.customerId);
      if (customer === null)
        throw new PermanentDeliveryError(`customer ${delivery.customerId} no longer exists`);
      return toCustomerRecord(customer, partner.customFields.customer);
    }
    if (delivery.eventType === 'pool.exhausted') {
      // The hour was marked in the transaction that queued the delivery, at its occurred_at.
      const hour = await this.sources.poolHours.exhaustedHour(delivery.partnerId, delivery.occurredAt);
      if (hour === null)
        throw new PermanentDeliveryError(`no exhausted pool hour at ${delivery.occurredAt.toISOString()}`);
      return { ...toPoolHourRecord(hour), threshold: partner.pool.exhaustedShare.toFixed(4) };
    }
    throw new PermanentDeliveryError(`delivery ${delivery.id} names no record`);
  }
}
