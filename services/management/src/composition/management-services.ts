import { classificationRulesRoutes } from '../call-intelligence/classification-rules.routes';
import { ClassificationRulesService } from '../call-intelligence/classification-rules.service';
import { transcriptRoutes } from '../call-intelligence/transcripts.routes';
import { TranscriptsService } from '../call-intelligence/transcripts.service';
import { campaignRoutes } from '../campaigns/campaigns.routes';
import { CampaignsService } from '../campaigns/campaigns.service';
import type { ManagementConfig } from '../config/management-config';
import type { CustomerChangeListener } from '../customers/customer-change-listener';
import { CustomersService } from '../customers/customers.service';
import { customerRoutes } from '../customers/customers.routes';
import { greetingRoutes } from '../greetings/greetings.routes';
import { GreetingsService } from '../greetings/greetings.service';
import { randomRecordPin } from '../greetings/record-pin';
import type { RouteDefinition } from '../http/route-definition';
import type { NumberInventoryListener } from '../numbers/number-inventory-listener';
import { numberPoolRoutes } from '../numbers/number-pools.routes';
import { NumberPoolsService } from '../numbers/number-pools.service';
import { NumbersService } from '../numbers/numbers.service';
import type { PartnerDirectory } from '../http/digest/partner-directory';
import { PartnersService } from '../partners/partners.service';
import { pricingModelRoutes } from '../pricing-models/pricing-models.routes';
import { PricingModelsService } from '../pricing-models/pricing-models.service';
import type { PartnerChangeListener } from '../partners/partner-change-listener';
import type { SourceChangeListener } from '../sources/source-change-listener';
import { sourceRoutes } from '../sources/sources.routes';
import { sourceCallSettingsRoutes } from '../sources/source-call-settings.routes';
import { sourceSpamPolicyRoutes } from '../sources/source-spam-policy.routes';
import { ownSettingsRoutes } from '../partners/own-settings.routes';
import { SourceOverrideService } from '../sources/source-override';
import type { SourceSpamPolicy } from '@trackline/contracts';
import { NO_SOURCE_CALL_SETTINGS, type SourceCallSettings } from '../partners/call-intelligence-settings';
import { SourcesService } from '../sources/sources.service';
import { systemResolver, InsecureHosts } from '../webhooks/webhook-url';
import { newWebhookSecret } from '../webhooks/webhook-secret';
import { webhookRoutes } from '../webhooks/webhooks.routes';
import { WebhooksService } from '../webhooks/webhooks.service';
import { monthlyReportRoutes } from '../reports/monthly-reports.routes';
import { MonthlyReportsService } from '../reports/monthly-reports.service';
import { integrationRoutes } from '../integrations/integrations.routes';
import { IntegrationsService } from '../integrations/integrations.service';
import { outcomeRoutes } from '../outcomes/outcomes.routes';
import { OutcomesService } from '../outcomes/outcomes.service';
import type { ManagementStores } from './management-stores';
import type { Logger } from '@trackline/platform';
import type { PoolResizesStore } from '../numbers/pool-resizes.store';
import { PoolAutoscaler } from '../pool-autoscaling/pool-autoscaler';
import { poolAutoscalingRoutes } from '../pool-autoscaling/pool-autoscaling.routes';
import pino from 'pino';
import { carrierAccountRoutes, carrierNumberRoutes } from '../carrier/carrier.routes';
import { CarrierAccountsService } from '../carrier/carrier-accounts.service';
import { CarrierNumbersService } from '../carrier/carrier-numbers.service';
import { numberWebhooks, TwilioNumbersClient } from '../carrier/twilio-numbers.client';
import { NumberRemoval } from '../numbers/number-removal';

export interface ManagementServices {
  /** Also the PartnerDirectory digest authentication looks partners up in. */
  partners: PartnersService & PartnerDirectory;
  customers: CustomersService;
  pricingModels: PricingModelsService;
  campaigns: CampaignsService;
  numbers: NumbersService;
  sources: SourcesService;
  sourceSpamPolicies: SourceOverrideService<SourceSpamPolicy | null>;
  sourceCallSettings: SourceOverrideService<SourceCallSettings>;
  greetings: GreetingsService;
  /** GET /number_pools; present when the stores were given Redis. */
  numberPools?: NumberPoolsService;
  /**
   * The pool's autoscaling and its audit (docs/pool-sizing.md, Autoscaling); present with
   * `numberPools` and `carrierNumbers`.
   */
  poolAutoscaling?: { autoscaler: PoolAutoscaler; resizes: PoolResizesStore };
  webhooks: WebhooksService;
  /** GET /customers/<id>/reports/monthly and the monthly e-mail's figures (docs/reports.md). */
  monthlyReports: MonthlyReportsService;
  /** GET/PUT/DELETE /integrations/google_ads and /integrations/ga4 (docs/conversions.md). */
  integrations: IntegrationsService;
  /** GET/PUT /cdrs/<cdr_id>/outcome and /cdrs/outcome?call_id= (docs/conversions.md, Outcomes). */
  outcomes: OutcomesService;
  /** GET /cdrs/<cdr_id>/transcript and /cdrs/transcript?call_id= (docs/call-intelligence.md, API). */
  transcripts: TranscriptsService;
  /** The partner's and its sources' classification rules (docs/call-intelligence.md, API). */
  classificationRules: ClassificationRulesService;
  /** GET/PUT/DELETE /carrier_account and carrier:set (docs/carrier-numbers.md). */
  carrierAccounts: CarrierAccountsService;
  /**
   * Buying and releasing numbers at the partner's carrier (docs/carrier-numbers.md); the pool
   * autoscaler's CarrierNumbers. Present when the config names the public URLs (`carrier`, `twilio`).
   */
  carrierNumbers?: CarrierNumbersService;
}

/** Told after committed changes, e.g. the Redis projections (docs/redis-keys.md, Writers). */
export interface ManagementListeners {
  sourceChanges: SourceChangeListener[];
  numberChanges: NumberInventoryListener[];
  /** Partner settings and campaigns' voicemail settings. */
  configChanges: PartnerChangeListener[];
  /** Customers deleted or changed through the API (the replacement service's customer-seen record). */
  customerChanges?: CustomerChangeListener[];
}

// Composition root: the services on the stores (docs/architecture.md, Composition).
export function createManagementServices(
  stores: ManagementStores,
  config: Pick<ManagementConfig, 'digest' | 'greetingRecordNumber'> & {
    webhooks?: Pick<ManagementConfig['webhooks'], 'insecureHosts'>;
    carrier?: ManagementConfig['carrier'];
    twilio?: Pick<ManagementConfig['twilio'], 'publicUrl'>;
  },
  listeners: ManagementListeners = { sourceChanges: [], numberChanges: [], configChanges: [] },
  logger: Logger = pino({ level: 'silent' }),
): ManagementServices {
  const services = createResourceServices(stores, config, listeners, logger);
  const { numberPools, carrierNumbers } = services;
  if (numberPools === undefined || stores.poolBindings === undefined || carrierNumbers === undefined)
    return services;
  const autoscaler = new PoolAutoscaler({
    partners: stores.partners,
    pools: numberPools,
    numbers: stores.numbers,
    bindings: stores.poolBindings,
    calls: stores.lastCalls,
    settings: stores.poolSettings,
    carrier: carrierNumbers,
    audit: stores.poolResizeAudit,
    logger,
  });
  return { ...services, poolAutoscaling: { autoscaler, resizes: stores.poolResizes } };
}

function createResourceServices(
  stores: ManagementStores,
  config: Parameters<typeof createManagementServices>[1],
  listeners: ManagementListeners,
  logger: Logger,
): ManagementServices {
  const numbers = new NumbersService(
    stores.partners,
    stores.numbers,
    listeners.numberChanges,
    stores.sources,
  );
  return {
    partners: new PartnersService(stores.partners, config.digest.realm, listeners.configChanges),
    customers: new CustomersService(
      stores.customers,
      stores.customerDeletion,
      stores.customerCreation,
      listeners.customerChanges,
    ),
    pricingModels: new PricingModelsService(
      stores.pricingModels,
      stores.campaigns,
      stores.pricingModelWrites,
    ),
    campaigns: new CampaignsService({
      campaigns: stores.campaigns,
      customers: stores.customers,
      pricingModels: stores.pricingModels,
      greetings: stores.campaignGreetings,
      sources: stores.campaignSources,
      deletion: stores.campaignDeletion,
      listeners: listeners.configChanges,
    }),
    numbers,
    sources: new SourcesService(stores.sources, stores.sourceWrites, listeners.sourceChanges),
    sourceSpamPolicies: new SourceOverrideService(stores.sourceSpamPolicies, null, listeners.sourceChanges),
    sourceCallSettings: new SourceOverrideService(
      stores.sourceCallSettings,
      NO_SOURCE_CALL_SETTINGS,
      listeners.sourceChanges,
    ),
    greetings: new GreetingsService(
      stores.greetings,
      stores.customers,
      stores.greetingUsage,
      stores.greetingDeletion,
      randomRecordPin,
      config.greetingRecordNumber,
    ),
    ...(stores.poolBindings === undefined
      ? {}
      : {
          numberPools: new NumberPoolsService(
            {
              numbers: stores.numbers,
              bindings: stores.poolBindings,
              partners: stores.partners,
              telemetry: stores.poolTelemetry,
              settings: stores.poolSettings,
              resizes: stores.poolResizes,
            },
            listeners.configChanges,
          ),
        }),
    webhooks: new WebhooksService({
      webhooks: stores.webhooks,
      deliveries: stores.webhookDeliveries,
      insecureHosts: new InsecureHosts(config.webhooks?.insecureHosts ?? []),
      resolve: systemResolver,
      newSecret: newWebhookSecret,
    }),
    monthlyReports: new MonthlyReportsService(stores.monthlyReports, stores.customers),
    integrations: new IntegrationsService(stores.integrations),
    outcomes: new OutcomesService(stores.cdrOutcomes, stores.outcomeWrites),
    transcripts: new TranscriptsService({ records: stores.cdrOutcomes, transcripts: stores.transcripts }),
    classificationRules: new ClassificationRulesService(
      stores.partnerClassificationRules,
      stores.sourceClassificationRules,
    ),
    carrierAccounts: new CarrierAccountsService(stores.carrierAccounts),
    ...(config.carrier === undefined || config.twilio === undefined
      ? {}
      : {
          carrierNumbers: createCarrierNumbers(stores, numbers, listeners, logger, {
            carrier: config.carrier,
            managementPublicUrl: config.twilio.publicUrl,
          }),
        }),
  };
}

// Composition root: the carrier feature on the numbers feature's one path into and out of the
// inventory (docs/carrier-numbers.md).
function createCarrierNumbers(
  stores: ManagementStores,
  numbers: NumbersService,
  listeners: ManagementListeners,
  logger: Logger,
  config: { carrier: ManagementConfig['carrier']; managementPublicUrl: string },
): CarrierNumbersService {
  const { carrier } = config;
  return new CarrierNumbersService({
    accounts: stores.carrierAccounts,
    partners: stores.partners,
    numbers,
    inventory: stores.numbers,
    removal: new NumberRemoval(
      stores.partners,
      stores.numberRemoval,
      listeners.numberChanges,
      stores.poolBindings,
    ),
    purchases: stores.carrierPurchases,
    lock: stores.purchaseLock,
    clientFor: (account) =>
      new TwilioNumbersClient(account, {
        timeoutMs: carrier.timeoutMs,
        rateLimitRetries: carrier.rateLimitRetries,
        retryDelayMs: carrier.retryDelayMs,
      }),
    webhooks: numberWebhooks(carrier.replacementPublicUrl, config.managementPublicUrl),
    clock: () => new Date(),
    logger,
  });
}

/** Every partner-facing resource route, for the HTTP layer to register. */
export function createManagementRoutes(services: ManagementServices): RouteDefinition[] {
  return [
    ...customerRoutes(services.customers),
    ...pricingModelRoutes(services.pricingModels),
    ...campaignRoutes(services.campaigns),
    ...sourceRoutes(services.sources),
    ...sourceSpamPolicyRoutes(services.sourceSpamPolicies),
    ...sourceCallSettingsRoutes(services.sourceCallSettings),
    ...ownSettingsRoutes(services.partners),
    ...greetingRoutes(services.greetings),
    ...(services.numberPools === undefined ? [] : numberPoolRoutes(services.numberPools)),
    ...(services.poolAutoscaling === undefined
      ? []
      : poolAutoscalingRoutes(services.poolAutoscaling.autoscaler, services.poolAutoscaling.resizes)),
    ...webhookRoutes(services.webhooks),
    ...monthlyReportRoutes(services.monthlyReports),
    ...integrationRoutes(services.integrations),
    ...outcomeRoutes(services.outcomes),
    ...transcriptRoutes(services.transcripts),
    ...classificationRulesRoutes(services.classificationRules),
    ...carrierAccountRoutes(services.carrierAccounts),
    ...(services.carrierNumbers === undefined ? [] : carrierNumberRoutes(services.carrierNumbers)),
  ];
}
