import { NotFoundError, ValidationError, parseCallTime } from '@trackline/domain';
import type { DeadNotificationFilter, DeadNotificationStore } from './dead-notifications.store';

/** As the operator types them: a partner name (advId) and a date or timestamp. */
export interface RequeueDeadInput {
  partner?: string;
  since?: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Sends dead notifications again (`trackline notifications:requeue-dead`), e.g. after a broken
 * SMTP_URL or an SMS gateway outage outlasted every retry.
 */
export class DeadNotificationsService {
  constructor(
    private readonly store: DeadNotificationStore,
    /** Dead partner webhook deliveries (docs/webhooks.md), sent again by the same command. */
    private readonly webhookDeliveries?: Pick<DeadNotificationStore, 'requeueDead'>,
  ) {}

  /** How many rows went back to pending. An unknown partner is refused, not read as "none". */
  async requeue(input: RequeueDeadInput, now: Date): Promise<number> {
    return this.store.requeueDead(await this.filter(input), now);
  }

  /** Notifications and webhook deliveries alike: how many of each went back to pending. */
  async requeueAll(
    input: RequeueDeadInput,
    now: Date,
  ): Promise<{ notifications: number; webhookDeliveries: number }> {
    const filter = await this.filter(input);
    return {
      notifications: await this.store.requeueDead(filter, now),
      webhookDeliveries: (await this.webhookDeliveries?.requeueDead(filter, now)) ?? 0,
    };
  }

  private async filter(input: RequeueDeadInput): Promise<DeadNotificationFilter> {
    const filter: DeadNotificationFilter = {};
    if (input.since !== undefined) filter.since = parseSince(input.since);
    if (input.partner !== undefined) {
      const partnerId = await this.store.partnerIdByName(input.partner);
      if (partnerId === null) throw new NotFoundError(`partner ${input.partner}`);
      filter.partnerId = partnerId;
    }
    return filter;
  }
}

/** A bare date is that day's midnight UTC; otherwise the call-time formats, always with a zone. */
function parseSince(value: string): Date {
  try {
    return parseCallTime('--since', DATE_ONLY.test(value) ? `${value} 00:00:00` : value);
  } catch {
    throw new ValidationError(
      '--since',
      'must be a date YYYY-MM-DD (midnight UTC), "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset',
    );
  }
}
