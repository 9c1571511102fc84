import type { EntityManager } from 'typeorm';
import type { PartnersStore } from '../partners/partners.store';

/** Which dead notifications an operator sends again; every field narrows the set. */
export interface DeadNotificationFilter {
  /** Only notifications of this partner's calls. */
  partnerId?: string;
  /** Only notifications written (with their CDR) at or after this time. */
  since?: Date;
}

export interface DeadNotificationStore {
  /** The partner's id by name (its advId), or null. */
  partnerIdByName(name: string): Promise<string | null>;
  /**
   * Puts the matching dead rows back to pending with a fresh set of attempts, due at `now`, and
   * returns how many. The delivery key stays, so a receiver that had the message already knows it.
   */
  requeueDead(filter: DeadNotificationFilter, now: Date): Promise<number>;
}

// last_error is kept: until the next attempt it is the only record of why the row died.
const REQUEUE_SQL = `
  WITH requeued AS (
    UPDATE notification_outbox o
    SET status = 'pending', attempts = 0, next_attempt_at = $1, locked_by = NULL, locked_until = NULL
    WHERE o.status = 'dead'
      AND ($2::bigint IS NULL OR EXISTS (SELECT 1 FROM cdrs c WHERE c.id = o.cdr_id AND c.partner_id = $2)
           OR o.payload -> 'report' ->> 'partnerId' = $2::text)
      AND ($3::timestamptz IS NULL OR o.created >= $3)
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM requeued`;

export class TypeormDeadNotificationStore implements DeadNotificationStore {
  constructor(
    private readonly manager: EntityManager,
    /** Partner names are the partners feature's. */
    private readonly partners: Pick<PartnersStore, 'findByName'>,
  ) {}

  async partnerIdByName(name: string): Promise<string | null> {
    return (await this.partners.findByName(name))?.id ?? null;
  }

  async requeueDead(filter: DeadNotificationFilter, now: Date): Promise<number> {
    const rows: Array<{ count: number }> = await this.manager.query(REQUEUE_SQL, [
      now,
      filter.partnerId ?? null,
      filter.since ?? null,
    ]);
    return rows[0]!.count;
  }
}
