import { DataLifecycleRunEntity } from './data-lifecycle-run.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const DATA_LIFECYCLE_ENTITIES = [DataLifecycleRunEntity];
