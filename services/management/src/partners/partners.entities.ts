import { PartnerEntity } from './partner.entity';
import { PartnerCustomFieldEntity } from './partner-custom-field.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const PARTNERS_ENTITIES = [PartnerEntity, PartnerCustomFieldEntity];
