import { WebhookEntity } from './webhook.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const WEBHOOKS_ENTITIES = [WebhookEntity, WebhookDeliveryEntity, WebhookDeliveryAttemptEntity];
