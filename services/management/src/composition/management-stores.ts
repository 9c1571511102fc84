import type { DataSource } from 'typeorm';
import type { CampaignSources, CustomerGreetings } from '../campaigns/campaign-references';
import { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import type { CampaignDeletionStores } from '../campaigns/campaigns.service';
import { TypeormCustomersStore, type CustomersStore } from '../customers/customers.store';
import { TypeormCdrsStore } from '../cdrs/cdrs.store';
import { TypeormCdrOutcomesStore, type CdrOutcomesStore } from '../cdrs/cdr-outcomes.store';
import { conversionQueue } from '../conversions/conversion-queue';
import { TypeormIntegrationsStore, type IntegrationsStore } from '../integrations/integrations.store';
import type { OutcomeWriteStores } from '../outcomes/outcomes.service';
import type { CustomerCreationStores, CustomerDeletionStores } from '../customers/customers.service';
import type { CustomerSightingStores } from '../customer-events/customer-events.service';
import { typeormUnitOfWork, type UnitOfWork } from '../db/unit-of-work';
import { OwnersGreetingUsage, type GreetingUsageReader } from '../greetings/greeting-usage';
import type { GreetingDeletionStores } from '../greetings/greetings.service';
import { TypeormGreetingsStore, type GreetingsStore } from '../greetings/greetings.store';
import { TypeormNumbersStore, type NumbersStore } from '../numbers/numbers.store';
import {
  RedisPoolBindingsReader,
  type PoolBindingsReader,
  type PoolScoresRedis,
} from '../numbers/pool-bindings.reader';
import { TypeormPartnersStore, type PartnersStore } from '../partners/partners.store';
import { PoolTelemetryStore } from '../pool-telemetry/pool-telemetry.store';
import type { PricingModelWriteStores } from '../pricing-models/pricing-models.service';
import { TypeormPricingModelsStore, type PricingModelsStore } from '../pricing-models/pricing-models.store';
import { TypeormSourceReferences } from '../sources/source-references.store';
import type { SourceWriteStores } from '../sources/sources.service';
import { TypeormSourcesStore, type SourcesStore } from '../sources/sources.store';
import { TypeormWebhookDeliveriesStore } from '../webhooks/webhook-deliveries.store';
import { customerSightingStores, webhookEventQueue } from '../webhooks/webhook-events';
import { TypeormWebhooksStore, type WebhooksStore } from '../webhooks/webhooks.store';
import { TypeormMonthlyReportStore, type MonthlyReportStore } from '../reports/monthly-reports.store';

/** Every store of the management service, on one initialised DataSource. */
export interface ManagementStores {
  partners: PartnersStore;
  customers: CustomersStore;
  customerDeletion: UnitOfWork<CustomerDeletionStores>;
  customerCreation: UnitOfWork<CustomerCreationStores>;
  /** The customer-seen consumer's transaction per batch. */
  customerSightings: UnitOfWork<CustomerSightingStores>;
  pricingModels: PricingModelsStore;
  pricingModelWrites: UnitOfWork<PricingModelWriteStores>;
  /** Also tells pricing models which campaigns use them (`used_by`). */
  campaigns: TypeormCampaignsStore;
  campaignDeletion: UnitOfWork<CampaignDeletionStores>;
  campaignSources: CampaignSources;
  campaignGreetings: CustomerGreetings;
  greetings: GreetingsStore;
  greetingUsage: GreetingUsageReader;
  greetingDeletion: UnitOfWork<GreetingDeletionStores>;
  numbers: NumbersStore;
  sources: SourcesStore;
  sourceWrites: UnitOfWork<SourceWriteStores>;
  /** Live DNI bindings (replacement's state in Redis); absent when no Redis client was given. */
  poolBindings?: PoolBindingsReader;
  /** Pool telemetry per partner-hour, as the rollup stored it (docs/pool-sizing.md). */
  poolTelemetry: PoolTelemetryStore;
  webhooks: WebhooksStore;
  /** The webhook outbox: its lists, and `enqueue` with an event's own transaction. */
  webhookDeliveries: TypeormWebhookDeliveriesStore;
  /** The monthly report's figures (docs/reports.md). */
  monthlyReports: MonthlyReportStore;
  /** Partners' Google Ads and GA4 settings (docs/conversions.md). */
  integrations: IntegrationsStore;
  /** Call outcomes: the record read, and the post's transaction (docs/conversions.md, Outcomes). */
  cdrOutcomes: CdrOutcomesStore;
  outcomeWrites: UnitOfWork<OutcomeWriteStores>;
}

/** The Redis the management service reads pool use from (keys built by @trackline/contracts). */
export interface ManagementRedis {
  client: PoolScoresRedis;
  keyPrefix: string;
}

// Composition root: every store on one DataSource (docs/architecture.md, Composition).
export function createManagementStores(dataSource: DataSource, redis?: ManagementRedis): ManagementStores {
  const sources = new TypeormSourcesStore(dataSource.manager);
  return {
    partners: new TypeormPartnersStore(dataSource.manager),
    customers: new TypeormCustomersStore(dataSource.manager),
    customerDeletion: typeormUnitOfWork(dataSource, (manager) => ({
      customers: new TypeormCustomersStore(manager),
      openSources: new TypeormSourcesStore(manager),
      callRecords: new TypeormCdrsStore(manager),
    })),
    customerCreation: typeormUnitOfWork(dataSource, (manager) => ({
      customers: new TypeormCustomersStore(manager),
      webhooks: webhookEventQueue(manager),
    })),
    customerSightings: typeormUnitOfWork(dataSource, customerSightingStores),
    numbers: new TypeormNumbersStore(dataSource.manager),
    sources,
    sourceWrites: typeormUnitOfWork(dataSource, (manager) => ({
      sources: new TypeormSourcesStore(manager),
      numbers: new TypeormNumbersStore(manager),
      references: new TypeormSourceReferences(manager),
    })),
    ...(redis === undefined
      ? {}
      : { poolBindings: new RedisPoolBindingsReader(redis.client, redis.keyPrefix) }),
    poolTelemetry: new PoolTelemetryStore(dataSource.manager),
    pricingModels: new TypeormPricingModelsStore(dataSource.manager),
    pricingModelWrites: typeormUnitOfWork(dataSource, (manager) => ({
      pricingModels: new TypeormPricingModelsStore(manager),
      users: new TypeormCampaignsStore(manager),
    })),
    campaigns: new TypeormCampaignsStore(dataSource.manager),
    campaignDeletion: typeormUnitOfWork(dataSource, (manager) => ({
      campaigns: new TypeormCampaignsStore(manager),
      sources: new TypeormSourcesStore(manager),
    })),
    campaignSources: sources,
    campaignGreetings: new TypeormGreetingsStore(dataSource.manager),
    greetings: new TypeormGreetingsStore(dataSource.manager),
    greetingUsage: new OwnersGreetingUsage({
      sources,
      campaigns: new TypeormCampaignsStore(dataSource.manager),
    }),
    greetingDeletion: typeormUnitOfWork(dataSource, (manager) => ({
      greetings: new TypeormGreetingsStore(manager),
      usage: new OwnersGreetingUsage({
        sources: new TypeormSourcesStore(manager),
        campaigns: new TypeormCampaignsStore(manager),
      }),
    })),
    webhooks: new TypeormWebhooksStore(dataSource.manager),
    webhookDeliveries: new TypeormWebhookDeliveriesStore(dataSource.manager),
    monthlyReports: new TypeormMonthlyReportStore(dataSource.manager),
    integrations: new TypeormIntegrationsStore(dataSource.manager),
    cdrOutcomes: new TypeormCdrOutcomesStore(dataSource.manager),
    outcomeWrites: typeormUnitOfWork(dataSource, (manager) => ({
      records: new TypeormCdrOutcomesStore(manager),
      webhooks: webhookEventQueue(manager),
      conversions: conversionQueue(manager),
    })),
  };
}
