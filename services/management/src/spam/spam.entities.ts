import { SpamNumberEntity } from './spam-number.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const SPAM_ENTITIES = [SpamNumberEntity];
