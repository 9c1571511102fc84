import { NotificationOutboxEntity } from './notification-outbox.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const NOTIFICATIONS_ENTITIES = [NotificationOutboxEntity];
