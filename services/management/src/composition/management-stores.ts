import type { DataSource, EntityManager } from 'typeorm';
import type { CampaignSources, CustomerGreetings } from '../campaigns/campaign-references';
import type { CampaignDeletionStores } from '../campaigns/campaigns.service';
import type { CustomersStore } from '../customers/customers.store';
import type { TranscriptReads } from '../call-intelligence/transcripts.service';
import type { CdrOutcomesStore } from '../cdrs/cdr-outcomes.store';
import type { IntegrationsStore } from '../integrations/integrations.store';
import type { OutcomeWriteStores } from '../outcomes/outcomes.service';
import type { CustomerCreationStores, CustomerDeletionStores } from '../customers/customers.service';
import type { CustomerSightingStores } from '../customer-events/customer-events.service';
import { typeormUnitOfWork, type UnitOfWork } from '../db/unit-of-work';
import { OwnersGreetingUsage, type GreetingUsageReader } from '../greetings/greeting-usage';
import type { GreetingDeletionStores } from '../greetings/greetings.service';
import type { GreetingsStore } from '../greetings/greetings.store';
import type { NumbersStore } from '../numbers/numbers.store';
import type { PoolResizesStore, TypeormPoolResizesStore } from '../numbers/pool-resizes.store';
import { LastCallsReader } from '../cdrs/last-calls.reader';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { PoolSettingsStore } from '../numbers/pool-settings.store';
import {
  RedisPoolBindingsReader,
  type PoolBindingsReader,
  type PoolScoresRedis,
} from '../numbers/pool-bindings.reader';
import type { PartnerClassificationRulesStore } from '../partners/partner-classification-rules.store';
import type { PartnersStore } from '../partners/partners.store';
import { PoolTelemetryStore } from '../pool-telemetry/pool-telemetry.store';
import type { PricingModelWriteStores } from '../pricing-models/pricing-models.service';
import type { PricingModelsStore } from '../pricing-models/pricing-models.store';
import type { SourceWriteStores } from '../sources/sources.service';
import type { SourceClassificationRulesStore } from '../sources/source-classification-rules.store';
import {
  callSettingsOverrides,
  spamPolicyOverrides,
  type SourceCallSettingsStore,
  type SourceSpamPolicies,
  type SourcesStore,
} from '../sources/sources.store';
import type { TypeormWebhookDeliveriesStore } from '../webhooks/webhook-deliveries.store';
import type { WebhooksStore } from '../webhooks/webhooks.store';
import { storesOn, type StoresOnManager } from './stores-on-manager';
import type { CarrierAccountsStore } from '../carrier/carrier-accounts.store';
import type { CarrierPurchasesStore } from '../carrier/carrier-purchases.store';
import { PostgresPurchaseLock, type PurchaseLock } from '../carrier/purchase-lock';
import type { NumberRemovalStores } from '../numbers/number-removal';
import type { MonthlyReportStore } from '../reports/monthly-reports.store';

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
  campaigns: StoresOnManager['campaigns'];
  campaignDeletion: UnitOfWork<CampaignDeletionStores>;
  campaignSources: CampaignSources;
  campaignGreetings: CustomerGreetings;
  greetings: GreetingsStore;
  greetingUsage: GreetingUsageReader;
  greetingDeletion: UnitOfWork<GreetingDeletionStores>;
  numbers: NumbersStore;
  /** A pool's own session lifetime, hold-back and autoscaling policy (docs/pool-sizing.md). */
  poolSettings: PoolSettingsStore;
  /** The audit of the pool's autoscaling (docs/pool-sizing.md, Autoscaling). */
  poolResizes: PoolResizesStore;
  /** An evaluation's audit row and its `pool.resized` deliveries, in one transaction. */
  poolResizeAudit: UnitOfWork<{ resizes: TypeormPoolResizesStore; webhooks: WebhookEventQueue }>;
  /** The last call to each pool number: what tells autoscaling a number is idle. */
  lastCalls: LastCallsReader;
  sources: SourcesStore;
  /** The sources' own spam policies (docs/spam.md, Per source). */
  sourceSpamPolicies: SourceSpamPolicies;
  /** The sources' own recording settings (docs/telephony.md, Recording answered calls). */
  sourceCallSettings: SourceCallSettingsStore;
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
  /** Partners' and sources' classification rules (docs/call-intelligence.md, API). */
  partnerClassificationRules: PartnerClassificationRulesStore;
  sourceClassificationRules: SourceClassificationRulesStore;
  /** Calls' transcripts, as GET /cdrs/<cdr_id>/transcript reads them. */
  transcripts: TranscriptReads['transcripts'];
  /** A number's removal: its row locked while the carrier releases it (docs/carrier-numbers.md). */
  numberRemoval: UnitOfWork<NumberRemovalStores>;
  /** Partners' carrier accounts and purchases (docs/carrier-numbers.md). */
  carrierAccounts: CarrierAccountsStore;
  carrierPurchases: CarrierPurchasesStore;
  /** One purchase of a partner at a time, across processes. */
  purchaseLock: PurchaseLock;
}

/** The Redis the management service reads pool use from (keys built by @trackline/contracts). */
export interface ManagementRedis {
  client: PoolScoresRedis;
  keyPrefix: string;
}

/**
 * The customer-seen consumer's transaction (docs/webhooks.md, `customer.created`): the batch upsert,
 * and the deliveries for the customers it created, commit together.
 */
export function customerSightingStores(manager: EntityManager): CustomerSightingStores {
  const stores = storesOn(manager);
  return { customers: stores.customers, webhooks: stores.webhookEvents };
}

// Composition root: every store on one DataSource (docs/architecture.md, Composition).
export function createManagementStores(dataSource: DataSource, redis?: ManagementRedis): ManagementStores {
  const main = storesOn(dataSource.manager);
  return {
    partners: main.partners,
    customers: main.customers,
    customerDeletion: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { customers: stores.customers, openSources: stores.sources, callRecords: stores.cdrs };
    }),
    customerCreation: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { customers: stores.customers, webhooks: stores.webhookEvents };
    }),
    customerSightings: typeormUnitOfWork(dataSource, customerSightingStores),
    numbers: main.numbers,
    poolSettings: main.poolSettings,
    poolResizes: main.poolResizes,
    poolResizeAudit: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { resizes: stores.poolResizes, webhooks: stores.webhookEvents };
    }),
    lastCalls: new LastCallsReader(dataSource.manager),
    sources: main.sources,
    sourceSpamPolicies: spamPolicyOverrides(main.sources),
    sourceCallSettings: callSettingsOverrides(main.sources),
    sourceWrites: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { sources: stores.sources, numbers: stores.numbers, references: stores.sourceReferences };
    }),
    ...(redis === undefined
      ? {}
      : { poolBindings: new RedisPoolBindingsReader(redis.client, redis.keyPrefix) }),
    poolTelemetry: new PoolTelemetryStore(dataSource.manager),
    pricingModels: main.pricingModels,
    pricingModelWrites: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { pricingModels: stores.pricingModels, users: stores.campaigns };
    }),
    campaigns: main.campaigns,
    campaignDeletion: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { campaigns: stores.campaigns, sources: stores.sources };
    }),
    campaignSources: main.sources,
    campaignGreetings: main.greetings,
    greetings: main.greetings,
    greetingUsage: new OwnersGreetingUsage({ sources: main.sources, campaigns: main.campaigns }),
    greetingDeletion: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return {
        greetings: stores.greetings,
        usage: new OwnersGreetingUsage({ sources: stores.sources, campaigns: stores.campaigns }),
      };
    }),
    webhooks: main.webhooks,
    webhookDeliveries: main.webhookDeliveries,
    monthlyReports: main.monthlyReports,
    integrations: main.integrations,
    cdrOutcomes: main.cdrOutcomes,
    outcomeWrites: typeormUnitOfWork(dataSource, (manager) => {
      const stores = storesOn(manager);
      return { records: stores.cdrOutcomes, webhooks: stores.webhookEvents, conversions: stores.conversions };
    }),
    partnerClassificationRules: main.partnerClassificationRules,
    sourceClassificationRules: main.sourceClassificationRules,
    transcripts: main.transcripts,
    numberRemoval: typeormUnitOfWork(dataSource, (manager) => ({ numbers: storesOn(manager).numbers })),
    carrierAccounts: main.carrierAccounts,
    carrierPurchases: main.carrierPurchases,
    purchaseLock: new PostgresPurchaseLock(dataSource),
  };
}
