import { PartnerIntegrationEntity } from './partner-integration.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const INTEGRATIONS_ENTITIES = [PartnerIntegrationEntity];
