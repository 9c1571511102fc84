import { CarrierAccountEntity } from './carrier-account.entity';
import { CarrierPurchaseEntity } from './carrier-purchase.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const CARRIER_ENTITIES = [CarrierAccountEntity, CarrierPurchaseEntity];
