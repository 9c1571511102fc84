import type { ApiRecord } from '../http/api-response';
import type { Partner } from '../partners/partner';
import { PermanentDeliveryError } from '../notifications/delivery-channel';
import { formatUtcTimestamp } from '@trackline/domain';
import { DISABLED_EVENT_TYPE, TEST_EVENT_TYPE, type Webhook } from './webhook';
import type { ClaimedWebhookDelivery } from './webhook-deliveries.store';

/**
 * Where bodies come from: each record as the partner API renders it, read through the feature that
 * owns it; null when it is gone. The records' features sit above webhooks (they queue its events),
 * so composition fills this port (composition/webhook-record-sources.ts).
 */
export interface WebhookRecordSources {
  cdrs: {
    /**
     * The extended call record (attribution, commission), the caller's number masked unless
     * `showFullAnum`. `start`: the record's, when the delivery kept it (null for rows queued before
     * it was kept).
     */
    findExtendedRecord(
      partnerId: string,
      id: string,
      start: Date | null,
      showFullAnum: boolean,
    ): Promise<ApiRecord | null>;
  };
  /** The customer record with the partner's custom fields for customers. */
  customers: {
    findRecord(partnerId: string, id: string, customFields: readonly string[]): Promise<ApiRecord | null>;
  };
  partners: { findById(id: string): Promise<Partner | null> };
  /** The pool telemetry hour marked exhausted at `exhaustedAt`, as GET /number_pools shows an hour. */
  poolHours: { exhaustedHourRecord(partnerId: string, exhaustedAt: Date): Promise<ApiRecord | null> };
  /** The pool's autoscaling audit row written at `at`, as GET /number_pools/resizes shows it. */
  poolResizes: { resizeRecordAt(partnerId: string, at: Date): Promise<ApiRecord | null> };
}

/**
 * What the deliveries claimed together read once between them: partners by id, call records by
 * partner and id (a call's events are queued in its transaction, so a claim usually takes them
 * together).
 */
export interface ClaimRound {
  partners: Map<string, Promise<Partner | null>>;
  cdrs: Map<string, Promise<ApiRecord | null>>;
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
  constructor(
    private readonly sources: WebhookRecordSources,
    /** This feature's own table: the webhook a `webhook.disabled` delivery tells about. */
    private readonly webhooks?: { findById(partnerId: string, id: string): Promise<Webhook | null> },
  ) {}

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
    if (delivery.eventType === DISABLED_EVENT_TYPE) return this.disabledData(delivery);
    if (delivery.cdrId !== null) {
      // The partner's one setting a record needs came with the claim: no read of the partner.
      const { partnerId, cdrId, cdrStart, showFullAnum } = delivery;
      const key = `${partnerId} ${cdrId} ${showFullAnum}`;
      const read =
        round.cdrs.get(key) ?? this.sources.cdrs.findExtendedRecord(partnerId, cdrId, cdrStart, showFullAnum);
      round.cdrs.set(key, read);
      const record = await read;
      if (record === null) throw new PermanentDeliveryError(`call record ${cdrId} no longer exists`);
      return record;
    }
    const read = round.partners.get(delivery.partnerId) ?? this.sources.partners.findById(delivery.partnerId);
    round.partners.set(delivery.partnerId, read);
    const partner = await read;
    if (partner === null) throw new PermanentDeliveryError(`partner ${delivery.partnerId} no longer exists`);
    if (delivery.customerId !== null) {
      const customer = await this.sources.customers.findRecord(
        delivery.partnerId,
        delivery.customerId,
        partner.customFields.customer,
      );
      if (customer === null)
        throw new PermanentDeliveryError(`customer ${delivery.customerId} no longer exists`);
      return customer;
    }
    if (delivery.eventType === 'pool.exhausted') {
      // The hour was marked in the transaction that queued the delivery, at its occurred_at.
      const hour = await this.sources.poolHours.exhaustedHourRecord(delivery.partnerId, delivery.occurredAt);
      if (hour === null)
        throw new PermanentDeliveryError(`no exhausted pool hour at ${delivery.occurredAt.toISOString()}`);
      return { ...hour, threshold: partner.pool.exhaustedShare.toFixed(4) };
    }
    if (delivery.eventType === 'pool.resized') {
      // The audit row was written in the transaction that queued the delivery, at its occurred_at.
      const resize = await this.sources.poolResizes.resizeRecordAt(delivery.partnerId, delivery.occurredAt);
      if (resize === null)
        throw new PermanentDeliveryError(`no pool resize at ${delivery.occurredAt.toISOString()}`);
      return resize;
    }
    throw new PermanentDeliveryError(`delivery ${delivery.id} names no record`);
  }

  /** The disabled webhook as it is now (no secret), and since when it failed. */
  private async disabledData(delivery: ClaimedWebhookDelivery): Promise<ApiRecord> {
    const subject =
      delivery.subjectWebhookId === null || this.webhooks === undefined
        ? null
        : await this.webhooks.findById(delivery.partnerId, delivery.subjectWebhookId);
    if (subject === null)
      throw new PermanentDeliveryError(`webhook ${delivery.subjectWebhookId ?? '?'} no longer exists`);
    return {
      webhook_id: subject.id,
      url: subject.url,
      events: subject.events.join(','),
      state: subject.state,
      failing_since: subject.failingSince === null ? null : formatUtcTimestamp(subject.failingSince),
      disabled_at: subject.disabledAt === null ? null : formatUtcTimestamp(subject.disabledAt),
    };
  }
}
