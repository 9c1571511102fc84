import { CustomerEntity } from './customer.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const CUSTOMERS_ENTITIES = [CustomerEntity];
