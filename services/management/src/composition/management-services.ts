import type { ManagementConfig } from '../config/management-config';
import { CustomersService } from '../customers/customers.service';
import { customerRoutes } from '../customers/customers.routes';
import type { RouteDefinition } from '../http/route-definition';
import type { PartnerDirectory } from '../partners/partner-directory';
import { PartnersService } from '../partners/partners.service';
import type { ManagementStores } from './management-stores';

export interface ManagementServices {
  /** Also the PartnerDirectory digest authentication looks partners up in. */
  partners: PartnersService & PartnerDirectory;
  customers: CustomersService;
}

// Composition root, step 3 of config → stores → services → app (STYLE §3).
export function createManagementServices(
  stores: ManagementStores,
  config: Pick<ManagementConfig, 'digest'>,
): ManagementServices {
  return {
    partners: new PartnersService(stores.partners, config.digest.realm),
    customers: new CustomersService(stores.customers, stores.customerDeletion),
  };
}

/** Every partner-facing resource route, for the HTTP layer to register. */
export function createManagementRoutes(services: ManagementServices): RouteDefinition[] {
  return [...customerRoutes(services.customers)];
}
