import { WebhookEntity } from './webhook.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const WEBHOOKS_ENTITIES = [WebhookEntity, WebhookDeliveryEntity];
