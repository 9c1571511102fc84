import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a service's work on stores that share one database transaction (the service
 * call that needs a transaction opens it). Services see stores, never the EntityManager.
 */
export interface UnitOfWork<Stores> {
  run<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}

/** Stores bound to the transaction's EntityManager; commits when `work` resolves, rolls back when it throws. */
export function typeormUnitOfWork<Stores>(
  dataSource: DataSource,
  bind: (manager: EntityManager) => Stores,
): UnitOfWork<Stores> {
  return { run: (work) => dataSource.transaction((manager) => work(bind(manager))) };
}

/** For unit tests with in-memory fakes: the same stores, no isolation. */
export function inlineUnitOfWork<Stores>(stores: Stores): UnitOfWork<Stores> {
  return { run: (work) => work(stores) };
}
