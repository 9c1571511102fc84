import { VoicemailGreetingEntity } from './voicemail-greeting.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const GREETINGS_ENTITIES = [VoicemailGreetingEntity];
