import type { EntityManager } from 'typeorm';
import { TypeormTranscriptsStore } from '../call-intelligence/transcripts.store';
import { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import { SqlCampaignPricingReader } from '../campaigns/campaign-pricing.reader';
import { TypeormCdrsStore } from '../cdrs/cdrs.store';
import { TypeormCdrOutcomesStore } from '../cdrs/cdr-outcomes.store';
import { TypeormConversionOutboxStore } from '../conversions/conversion-outbox.store';
import { conversionQueue, type ConversionQueue } from '../conversions/conversion-queue';
import { TypeormIntegrationsStore } from '../integrations/integrations.store';
import { TypeormSpamListsStore } from '../spam/spam-lists.store';
import { SqlCdrCustomersReader } from '../customers/cdr-customers.reader';
import { SqlDialledNumbersReader } from './dialled-numbers.reader';
import { SqlCdrSourcesReader } from '../sources/cdr-sources.reader';
import { TypeormCustomersStore } from '../customers/customers.store';
import { TypeormGreetingsStore } from '../greetings/greetings.store';
import { TypeormNumberHoldBacks } from '../numbers/number-hold-backs.store';
import { TypeormNumbersStore } from '../numbers/numbers.store';
import { TypeormPoolResizesStore } from '../numbers/pool-resizes.store';
import { TypeormPoolSettingsStore } from '../numbers/pool-settings.store';
import { TypeormDeadNotificationStore } from '../notifications/dead-notifications.store';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { TypeormPartnerClassificationRulesStore } from '../partners/partner-classification-rules.store';
import { TypeormPartnersStore } from '../partners/partners.store';
import { TypeormPricingModelsStore } from '../pricing-models/pricing-models.store';
import { TypeormMonthlyReportStore } from '../reports/monthly-reports.store';
import { TypeormSourceClassificationRulesStore } from '../sources/source-classification-rules.store';
import { TypeormSourceReferences } from '../sources/source-references.store';
import { TypeormSourcesStore } from '../sources/sources.store';
import { TypeormWebhookDeliveriesStore } from '../webhooks/webhook-deliveries.store';
import { webhookEventQueue, type WebhookEventQueue } from '../webhooks/webhook-events';
import { TypeormWebhooksStore } from '../webhooks/webhooks.store';
import { TypeormCarrierAccountsStore } from '../carrier/carrier-accounts.store';
import { TypeormCarrierPurchasesStore } from '../carrier/carrier-purchases.store';

/** Every table owner's store on one EntityManager, each handed the other owners it reads through. */
export interface StoresOnManager {
  partners: TypeormPartnersStore;
  customers: TypeormCustomersStore;
  pricingModels: TypeormPricingModelsStore;
  campaigns: TypeormCampaignsStore;
  greetings: TypeormGreetingsStore;
  numberHoldBacks: TypeormNumberHoldBacks;
  numbers: TypeormNumbersStore;
  /** A pool's own session lifetime, hold-back and autoscaling policy (docs/pool-sizing.md). */
  poolSettings: TypeormPoolSettingsStore;
  /** The audit of the pool's autoscaling. */
  poolResizes: TypeormPoolResizesStore;
  sources: TypeormSourcesStore;
  sourceReferences: TypeormSourceReferences;
  cdrs: TypeormCdrsStore;
  webhooks: TypeormWebhooksStore;
  webhookDeliveries: TypeormWebhookDeliveriesStore;
  /** Deliveries queued in this manager's transaction. */
  webhookEvents: WebhookEventQueue;
  monthlyReports: TypeormMonthlyReportStore;
  deadNotifications: TypeormDeadNotificationStore;
  /** The notification outbox (e-mail, SMS, monthly reports). */
  outbox: TypeormOutboxStore;
  cdrOutcomes: TypeormCdrOutcomesStore;
  integrations: TypeormIntegrationsStore;
  conversionOutbox: TypeormConversionOutboxStore;
  /** Conversions queued in this manager's transaction. */
  conversions: ConversionQueue;
  /** The partners' block and allow lists (docs/spam.md). */
  spamLists: TypeormSpamListsStore;
  /** Partners' and sources' classification rules (docs/call-intelligence.md, API). */
  partnerClassificationRules: TypeormPartnerClassificationRulesStore;
  sourceClassificationRules: TypeormSourceClassificationRulesStore;
  /** Calls' transcripts (docs/call-intelligence.md). */
  transcripts: TypeormTranscriptsStore;
  /** Partners' carrier accounts and number purchases (docs/carrier-numbers.md). */
  carrierAccounts: TypeormCarrierAccountsStore;
  carrierPurchases: TypeormCarrierPurchasesStore;
}

/** The CDR store with the readers of the features a record points at, on one manager. */
export function cdrsStoreOn(manager: EntityManager): TypeormCdrsStore {
  return new TypeormCdrsStore(manager, {
    customers: new SqlCdrCustomersReader(manager),
    numbers: new SqlDialledNumbersReader(manager),
    sources: new SqlCdrSourcesReader(manager),
    campaigns: new SqlCampaignPricingReader(manager),
  });
}

// Composition root (docs/architecture.md, Composition): the one place a store is handed the stores
// it reads through. Built per EntityManager, so a unit of work gets every store on its transaction;
// stores hold no state beyond the manager, so building them is cheap.
export function storesOn(manager: EntityManager): StoresOnManager {
  const partners = new TypeormPartnersStore(manager);
  const customers = new TypeormCustomersStore(manager);
  const campaigns = new TypeormCampaignsStore(manager);
  const greetings = new TypeormGreetingsStore(manager);
  const numberHoldBacks = new TypeormNumberHoldBacks(manager);
  const sources = new TypeormSourcesStore(manager, numberHoldBacks);
  const webhookDeliveries = new TypeormWebhookDeliveriesStore(manager);
  const cdrOutcomes = new TypeormCdrOutcomesStore(manager);
  const integrations = new TypeormIntegrationsStore(manager);
  const conversionOutbox = new TypeormConversionOutboxStore(manager);
  return {
    partners,
    customers,
    pricingModels: new TypeormPricingModelsStore(manager),
    campaigns,
    greetings,
    numberHoldBacks,
    numbers: new TypeormNumbersStore(manager, { partners, sources }),
    poolSettings: new TypeormPoolSettingsStore(manager),
    poolResizes: new TypeormPoolResizesStore(manager),
    sources,
    sourceReferences: new TypeormSourceReferences({ customers, campaigns, greetings }),
    cdrs: cdrsStoreOn(manager),
    webhooks: new TypeormWebhooksStore(manager),
    webhookDeliveries,
    webhookEvents: webhookEventQueue(webhookDeliveries, manager),
    monthlyReports: new TypeormMonthlyReportStore(manager, { sources, customers, outcomes: cdrOutcomes }),
    deadNotifications: new TypeormDeadNotificationStore(manager, partners),
    outbox: new TypeormOutboxStore(manager),
    cdrOutcomes,
    integrations,
    conversionOutbox,
    conversions: conversionQueue({ integrations, outbox: conversionOutbox }),
    spamLists: new TypeormSpamListsStore(manager),
    partnerClassificationRules: new TypeormPartnerClassificationRulesStore(manager),
    sourceClassificationRules: new TypeormSourceClassificationRulesStore(manager),
    transcripts: new TypeormTranscriptsStore(manager),
    carrierAccounts: new TypeormCarrierAccountsStore(manager),
    carrierPurchases: new TypeormCarrierPurchasesStore(manager),
  };
}
