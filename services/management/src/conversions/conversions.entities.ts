import { ConversionOutboxEntity } from './conversion-outbox.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const CONVERSIONS_ENTITIES = [ConversionOutboxEntity];
