import type { DataSource } from 'typeorm';
import { createDataSource, createReadDataSource, type PoolOptions } from '../db/data-source';
import { MANAGEMENT_ENTITIES } from './management-entities';

/** The primary's data source with every entity and migration. Not yet connected; call `initialize()`. */
export function createManagementDataSource(databaseUrl: string, pool?: PoolOptions): DataSource {
  return createDataSource(databaseUrl, MANAGEMENT_ENTITIES, pool);
}

/** A read replica's data source with every entity, no migrations. Not yet connected; call `initialize()`. */
export function createManagementReadDataSource(databaseUrl: string, pool?: PoolOptions): DataSource {
  return createReadDataSource(databaseUrl, MANAGEMENT_ENTITIES, pool);
}
