import { NumberPoolSettingsEntity } from './number-pool-settings.entity';
import { NumberQuarantineEntity } from './number-quarantine.entity';
import { PoolResizeEntity } from './pool-resize.entity';
import { TrackingNumberEntity } from './tracking-number.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const NUMBERS_ENTITIES = [
  TrackingNumberEntity,
  NumberQuarantineEntity,
  NumberPoolSettingsEntity,
  PoolResizeEntity,
];
