import type { DataSource } from 'typeorm';

/** One carrier purchase (or reconciliation) of a partner at a time, across processes. */
export interface PurchaseLock {
  withLock<T>(partnerId: string, work: () => Promise<T>): Promise<T>;
}

/**
 * A session-level advisory lock on a connection of its own, held across the purchase's several
 * transactions and the carrier's answers. A process that dies loses its connection and with it the
 * lock, so the next buy's reconciler never looks at a purchase still in flight.
 */
export class PostgresPurchaseLock implements PurchaseLock {
  constructor(private readonly dataSource: DataSource) {}

  async withLock<T>(partnerId: string, work: () => Promise<T>): Promise<T> {
    const key = `trackline.carrier-purchase:${partnerId}`;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    } finally {
      await runner.release();
    }
  }
}
