import type { Cdr } from '../cdrs/cdr';
import { toCdrRecord } from '../cdrs/cdr-record';
import type { Customer } from '../customers/customer';
import { toCustomerRecord } from '../customers/customer-record';
import type { Partner } from '../partners/partner';
import { toPoolResizeRecord } from '../numbers/pool-resize-record';
import type { PoolResize } from '../numbers/pool-resizes.store';
import { toPoolHourRecord } from '../pool-telemetry/pool-hour-record';
import type { PoolTelemetryHour } from '../pool-telemetry/pool-telemetry.store';
import type { WebhookRecordSources } from '../webhooks/webhook-payloads';

/** The owners' reads the webhook bodies are rendered from, on the dispatcher's manager. */
export interface WebhookRecordStores {
  cdrs: { findById(partnerId: string, id: string, start: Date | null): Promise<Cdr | null> };
  customers: { findById(partnerId: string, id: string): Promise<Customer | null> };
  partners: { findById(id: string): Promise<Partner | null> };
  poolHours: { exhaustedHour(partnerId: string, exhaustedAt: Date): Promise<PoolTelemetryHour | null> };
  poolResizes: { findAt(partnerId: string, at: Date): Promise<PoolResize | null> };
}

/**
 * The webhooks' record port on each owner's store and renderer, so a webhook's `data` is the record
 * the partner API shows (docs/webhooks.md) and webhooks/ imports none of those features.
 */
export function webhookRecordSources(stores: WebhookRecordStores): WebhookRecordSources {
  return {
    cdrs: {
      findExtendedRecord: async (partnerId, id, start, showFullAnum) => {
        const cdr = await stores.cdrs.findById(partnerId, id, start);
        return cdr === null ? null : toCdrRecord(cdr, { extended: true, showFullAnum });
      },
    },
    customers: {
      findRecord: async (partnerId, id, customFields) => {
        const customer = await stores.customers.findById(partnerId, id);
        return customer === null ? null : toCustomerRecord(customer, customFields);
      },
    },
    partners: stores.partners,
    poolHours: {
      exhaustedHourRecord: async (partnerId, exhaustedAt) => {
        const hour = await stores.poolHours.exhaustedHour(partnerId, exhaustedAt);
        return hour === null ? null : toPoolHourRecord(hour);
      },
    },
    poolResizes: {
      resizeRecordAt: async (partnerId, at) => {
        const resize = await stores.poolResizes.findAt(partnerId, at);
        return resize === null ? null : toPoolResizeRecord(resize);
      },
    },
  };
}
