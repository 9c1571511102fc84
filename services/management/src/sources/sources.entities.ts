import { SourceEntity } from './source.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const SOURCES_ENTITIES = [SourceEntity];
