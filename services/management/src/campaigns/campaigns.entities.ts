import { CampaignEntity } from './campaign.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const CAMPAIGNS_ENTITIES = [CampaignEntity];
