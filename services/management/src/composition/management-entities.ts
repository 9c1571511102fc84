import { PARTNERS_ENTITIES } from '../partners/partners.entities';
import { CUSTOMERS_ENTITIES } from '../customers/customers.entities';
import { GREETINGS_ENTITIES } from '../greetings/greetings.entities';
import { PRICING_MODELS_ENTITIES } from '../pricing-models/pricing-models.entities';
import { CAMPAIGNS_ENTITIES } from '../campaigns/campaigns.entities';
import { NUMBERS_ENTITIES } from '../numbers/numbers.entities';
import { SOURCES_ENTITIES } from '../sources/sources.entities';
import { CDRS_ENTITIES } from '../cdrs/cdrs.entities';
import { NOTIFICATIONS_ENTITIES } from '../notifications/notifications.entities';
import { WEBHOOKS_ENTITIES } from '../webhooks/webhooks.entities';
import { REPORTS_ENTITIES } from '../reports/reports.entities';
import { TELEPHONY_ENTITIES } from '../telephony/telephony.entities';
import { DATA_LIFECYCLE_ENTITIES } from '../data-lifecycle/data-lifecycle.entities';
import { POOL_TELEMETRY_ENTITIES } from '../pool-telemetry/pool-telemetry.entities';
import { INTEGRATIONS_ENTITIES } from '../integrations/integrations.entities';
import { CONVERSIONS_ENTITIES } from '../conversions/conversions.entities';
import { SPAM_ENTITIES } from '../spam/spam.entities';
import { CALL_INTELLIGENCE_ENTITIES } from '../call-intelligence/call-intelligence.entities';
import { CARRIER_ENTITIES } from '../carrier/carrier.entities';

/**
 * Every entity of the management service, from each feature's own list: an explicit list rather
 * than a glob, so a build cannot silently lose one, and the same list works from TypeScript sources
 * (tests) and compiled JavaScript (dist). db/ knows no feature (docs/architecture.md, Floors).
 */
export const MANAGEMENT_ENTITIES = [
  ...PARTNERS_ENTITIES,
  ...CUSTOMERS_ENTITIES,
  ...GREETINGS_ENTITIES,
  ...PRICING_MODELS_ENTITIES,
  ...CAMPAIGNS_ENTITIES,
  ...NUMBERS_ENTITIES,
  ...SOURCES_ENTITIES,
  ...CDRS_ENTITIES,
  ...NOTIFICATIONS_ENTITIES,
  ...WEBHOOKS_ENTITIES,
  ...REPORTS_ENTITIES,
  ...TELEPHONY_ENTITIES,
  ...DATA_LIFECYCLE_ENTITIES,
  ...POOL_TELEMETRY_ENTITIES,
  ...INTEGRATIONS_ENTITIES,
  ...CONVERSIONS_ENTITIES,
  ...SPAM_ENTITIES,
  ...CALL_INTELLIGENCE_ENTITIES,
  ...CARRIER_ENTITIES,
];
