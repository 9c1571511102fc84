import type { EntityManager } from 'typeorm';
import type { Webhook, WebhookChanges, WebhookEventType, WebhookState, WebhookValues } from './webhook';
import { WebhookEntity } from './webhook.entity';

export interface WebhooksStore {
  /** The partner's webhooks, ordered by id. */
  list(partnerId: string): Promise<Webhook[]>;
  findById(partnerId: string, id: string): Promise<Webhook | null>;
  count(partnerId: string): Promise<number>;
  insert(partnerId: string, values: WebhookValues & { secret: string }): Promise<Webhook>;
  /** Keys left out keep their value. Null when the partner has no such webhook. */
  update(partnerId: string, id: string, changes: WebhookChanges): Promise<Webhook | null>;
  /** Its queued deliveries go with it. */
  delete(partnerId: string, id: string): Promise<void>;
}

/**
 * The event types the active webhooks of each partner subscribe to; a partner without any is
 * absent. Asked once per batch of call records, so a partner without webhooks costs its records no
 * outbox statement (docs/webhooks.md, "When an event is queued"; remembered-subscribers.ts spares
 * the read for partners known to have webhooks).
 */
export interface WebhookSubscriptions {
  subscribedEventTypes(partnerIds: readonly string[]): Promise<Map<string, ReadonlySet<WebhookEventType>>>;
}

export class TypeormWebhooksStore implements WebhooksStore, WebhookSubscriptions {
  constructor(private readonly manager: EntityManager) {}

  async list(partnerId: string): Promise<Webhook[]> {
    const rows = await this.manager.getRepository(WebhookEntity).find({
      where: { partnerId },
      order: { id: 'ASC' },
    });
    return rows.map(toWebhook);
  }

  async findById(partnerId: string, id: string): Promise<Webhook | null> {
    const row = await this.manager.getRepository(WebhookEntity).findOneBy({ partnerId, id });
    return row === null ? null : toWebhook(row);
  }

  count(partnerId: string): Promise<number> {
    return this.manager.getRepository(WebhookEntity).countBy({ partnerId });
  }

  async insert(partnerId: string, values: WebhookValues & { secret: string }): Promise<Webhook> {
    const repository = this.manager.getRepository(WebhookEntity);
    const saved = await repository.save(repository.create({ partnerId, ...values }));
    return toWebhook(await repository.findOneByOrFail({ id: saved.id }));
  }

  async update(partnerId: string, id: string, changes: WebhookChanges): Promise<Webhook | null> {
    if (Object.keys(changes).length > 0) {
      // A state the partner sets starts the failure count afresh: a re-enabled endpoint gets the
      // whole period again before it is disabled (docs/webhooks.md, Disabled endpoints).
      const health = changes.state === undefined ? {} : { failingSince: null, disabledAt: null };
      const result = await this.manager
        .getRepository(WebhookEntity)
        .update({ partnerId, id }, { ...changes, ...health });
      if (result.affected === 0) return null;
    }
    return this.findById(partnerId, id);
  }

  /**
   * State '2' for an active webhook, in the caller's transaction; null when it is not active any
   * more (paused, deleted, or disabled by another worker first).
   */
  async disable(id: string, now: Date): Promise<Webhook | null> {
    const rows = (await this.manager.query(
      `UPDATE webhooks SET state = '2', disabled_at = $2 WHERE id = $1 AND state = '0' RETURNING id`,
      [id, now],
    )) as [Array<{ id: string }>, number];
    if (rows[0].length === 0) return null;
    return toWebhook(await this.manager.getRepository(WebhookEntity).findOneByOrFail({ id }));
  }

  async delete(partnerId: string, id: string): Promise<void> {
    await this.manager.getRepository(WebhookEntity).delete({ partnerId, id });
  }

  async subscribedEventTypes(
    partnerIds: readonly string[],
  ): Promise<Map<string, ReadonlySet<WebhookEventType>>> {
    const subscribed = new Map<string, Set<WebhookEventType>>();
    if (partnerIds.length === 0) return subscribed;
    const rows = (await this.manager.query(
      `SELECT partner_id::text AS partner_id, events FROM webhooks WHERE partner_id = ANY ($1::bigint[]) AND state = '0'`,
      [partnerIds],
    )) as Array<{ partner_id: string; events: WebhookEventType[] }>;
    for (const row of rows) {
      const types = subscribed.get(row.partner_id) ?? new Set<WebhookEventType>();
      for (const type of row.events) types.add(type);
      subscribed.set(row.partner_id, types);
    }
    return subscribed;
  }
}

function toWebhook(row: WebhookEntity): Webhook {
  return {
    id: row.id,
    partnerId: row.partnerId,
    url: row.url,
    events: row.events as WebhookEventType[],
    secret: row.secret,
    state: row.state as WebhookState,
    failingSince: row.failingSince ?? null,
    disabledAt: row.disabledAt ?? null,
    created: row.created,
    modified: row.modified,
  };
}
