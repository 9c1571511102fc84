import { CdrEntity } from './cdr.entity';
import { CdrDayCountEntity } from './cdr-day-count.entity';
import { CdrCallIdEntity } from './cdr-call-id.entity';
import { CdrChangeEntity } from './cdr-change.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const CDRS_ENTITIES = [CdrEntity, CdrDayCountEntity, CdrCallIdEntity, CdrChangeEntity];
