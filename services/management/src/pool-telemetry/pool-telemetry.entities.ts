import { PoolTelemetryHourEntity } from './pool-telemetry-hour.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const POOL_TELEMETRY_ENTITIES = [PoolTelemetryHourEntity];
