import type { UnitOfWork } from '../db/unit-of-work';
import type { RouteDefinition, SwitchRouteDefinition } from '../http/route-definition';
import { countedIngestion, countOutcomes } from './counted-ingestion';
import type { IngestMetrics } from './cdr-ingest-metrics';
import type { WebhookSubscriptions } from '../webhooks/webhooks.store';
import type { CallAttributionReader } from './call-attribution.reader';
import { CdrIngestionService, type CdrIngestion } from './cdr-ingestion.service';
import { mergedIngestion } from './cdr-merged-ingestion';
import type { CdrWriteStores } from './cdr-write-stores';
import type { CallerHistory } from './cdr-spam';
import { cdrChangeRoutes } from './cdr-changes.routes';
import { CdrChangesService } from './cdr-changes.service';
import type { TypeormCdrChangesStore } from './cdr-changes.store';
import { cdrRoutes } from './cdrs.routes';
import { CdrsService } from './cdrs.service';
import type { TypeormCdrsStore } from './cdrs.store';
import { switchCdrRoutes, type SwitchCdrRouteDeps } from './switch-cdrs.routes';

export interface CdrFeatureDeps {
  /**
   * Each batch's transaction, in the call records' pool on the primary: its lookups, then the CDRs,
   * their outbox rows and webhook deliveries, committed together.
   */
  writes: UnitOfWork<CdrWriteStores>;
  /** On the primary: the customer a statistics request names. */
  primary: TypeormCdrsStore;
  /** The statistics pages' reads: the read replica when configured, else the primary. */
  replica: Pick<TypeormCdrsStore, 'page'>;
  /** Where replacement wrote each call's attribution. */
  attributions: CallAttributionReader;
  /** Which partners subscribed to which events. */
  webhooks: WebhookSubscriptions;
  /** The callers' recent calls and marks, which spam scoring reads and feeds (docs/spam.md). */
  callerHistory: CallerHistory;
  /** On the primary: the change feed (docs/cdrs.md, Change feed) must see every committed change. */
  changes: Pick<TypeormCdrChangesStore, 'changesAfter'>;
  /** TELEPHONY_TOKEN, for POST /telephony/cdrs. */
  telephonyToken: string | undefined;
  /** `trackline_cdrs_ingested_total` (docs/operations.md): every record's outcome is counted. */
  metrics: IngestMetrics;
  /** Store outages told once each (docs/operations.md, Store outages). */
  outages?: SwitchCdrRouteDeps['outages'];
}

export interface CdrFeature {
  /** Counted ingestion of typed records, for the provider's calls (telephony/twilio). */
  ingestion: CdrIngestion;
  list: CdrsService;
  /** GET /statistics/cdrs and GET /cdrs/changes, for the partner route table. */
  routes: RouteDefinition[];
  /** POST /telephony/cdrs, the switch's (bearer token). */
  switchRoutes: SwitchRouteDefinition[];
}

/**
 * The CDR feature on its stores (composition/cdrs-composition.ts builds them). Each record's
 * transaction stores the CDR and its outbox rows together (docs/notifications.md, The outbox).
 */
export function createCdrFeature(deps: CdrFeatureDeps): CdrFeature {
  const { primary, replica, metrics } = deps;
  const list = new CdrsService({
    findCustomerId: (partnerId, by) => primary.findCustomerId(partnerId, by),
    page: (query) => replica.page(query),
  });
  const ingestion = countedIngestion(
    mergedIngestion(
      new CdrIngestionService(deps.writes, deps.attributions, deps.webhooks, deps.callerHistory, (path) =>
        metrics.cdrBatch(path),
      ),
    ),
    metrics,
  );
  return {
    ingestion,
    list,
    routes: [...cdrRoutes(list), ...cdrChangeRoutes(new CdrChangesService(deps.changes))],
    switchRoutes: switchCdrRoutes({
      ingestion,
      countRefused: (failures) => countOutcomes(metrics, failures),
      token: deps.telephonyToken,
      outages: deps.outages,
    }),
  };
}
