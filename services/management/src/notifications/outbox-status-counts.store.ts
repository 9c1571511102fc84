import type { EntityManager } from 'typeorm';
import { NotificationOutboxEntity, type OutboxStatus } from './notification-outbox.entity';

export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['pending', 'sending', 'sent', 'dead', 'logged'];

/** How many outbox rows are in each status (metrics); a status without rows counts 0. */
export interface OutboxStatusCounts {
  countByStatus(): Promise<Record<OutboxStatus, number>>;
}

export class TypeormOutboxStatusCounts implements OutboxStatusCounts {
  constructor(private readonly manager: EntityManager) {}

  async countByStatus(): Promise<Record<OutboxStatus, number>> {
    const rows = await this.manager
      .createQueryBuilder(NotificationOutboxEntity, 'o')
      .select('o.status', 'status')
      .addSelect('count(*)::int', 'count')
      .groupBy('o.status')
      .getRawMany<{ status: OutboxStatus; count: number }>();
    const counts = Object.fromEntries(OUTBOX_STATUSES.map((status) => [status, 0])) as Record<
      OutboxStatus,
      number
    >;
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }
}
