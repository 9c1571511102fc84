import { TwilioCallEntity } from './twilio/twilio-call.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const TELEPHONY_ENTITIES = [TwilioCallEntity];
