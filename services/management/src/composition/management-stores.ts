import type { DataSource } from 'typeorm';
import type { CampaignSources, CustomerGreetings } from '../campaigns/campaign-references';
import { NoSourcesTableCampaignSources } from '../campaigns/campaign-sources.store';
import { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import type { CampaignDeletionStores } from '../campaigns/campaigns.service';
import { TypeormCustomersStore, type CustomersStore } from '../customers/customers.store';
import type { CustomerDeletionStores } from '../customers/customers.service';
import { NoSourcesTableCounter } from '../customers/open-sources-counter';
import { typeormUnitOfWork, type UnitOfWork } from '../db/unit-of-work';
import { TypeormGreetingsStore } from '../greetings/greetings.store';
import { TypeormPartnersStore, type PartnersStore } from '../partners/partners.store';
import type { PricingModelWriteStores } from '../pricing-models/pricing-models.service';
import { TypeormPricingModelsStore, type PricingModelsStore } from '../pricing-models/pricing-models.store';

/** Every store of the management service, on one initialised DataSource. */
export interface ManagementStores {
  partners: PartnersStore;
  customers: CustomersStore;
  customerDeletion: UnitOfWork<CustomerDeletionStores>;
  pricingModels: PricingModelsStore;
  pricingModelWrites: UnitOfWork<PricingModelWriteStores>;
  /** Also tells pricing models which campaigns use them (`used_by`). */
  campaigns: TypeormCampaignsStore;
  campaignDeletion: UnitOfWork<CampaignDeletionStores>;
  campaignSources: CampaignSources;
  campaignGreetings: CustomerGreetings;
}

// Composition root, step 2 of config → stores → services → app (STYLE §3).
export function createManagementStores(dataSource: DataSource): ManagementStores {
  return {
    partners: new TypeormPartnersStore(dataSource.manager),
    customers: new TypeormCustomersStore(dataSource.manager),
    customerDeletion: typeormUnitOfWork(dataSource, (manager) => ({
      customers: new TypeormCustomersStore(manager),
      // Until the sources feature adds its table and store; see NoSourcesTableCounter.
      openSources: new NoSourcesTableCounter(),
    })),
    pricingModels: new TypeormPricingModelsStore(dataSource.manager),
    pricingModelWrites: typeormUnitOfWork(dataSource, (manager) => ({
      pricingModels: new TypeormPricingModelsStore(manager),
      users: new TypeormCampaignsStore(manager),
    })),
    campaigns: new TypeormCampaignsStore(dataSource.manager),
    campaignDeletion: typeormUnitOfWork(dataSource, (manager) => ({
      campaigns: new TypeormCampaignsStore(manager),
      // Until the sources feature adds its table; then TypeormCampaignSources(manager).
      sources: new NoSourcesTableCampaignSources(),
    })),
    // Until the sources feature adds its table; then TypeormCampaignSources(dataSource.manager).
    campaignSources: new NoSourcesTableCampaignSources(),
    campaignGreetings: new TypeormGreetingsStore(dataSource.manager),
  };
}
