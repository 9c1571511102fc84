import {
  createMetricsRegistry,
  Counter,
  FixedCounter,
  Gauge,
  type Logger,
  type Registry,
} from '@trackline/platform';
import { OUTBOX_STATUSES, type OutboxStatusCounts } from '../notifications/outbox-status-counts.store';
import { MANAGEMENT_STORES, type ManagementStore } from '../http/error-handler';
import type { QueueBacklog } from '../db/leased-queue';
import type { OutboxName } from '../db/outbox-bell';
import type { PoolUsage } from '../numbers/number-pools.service';
import type { ResizeOutcome } from '../numbers/pool-resizes.store';
import type { CarrierFailure } from '../pool-autoscaling/carrier-failure';
import type { DataLifecycleReport } from '../data-lifecycle/data-lifecycle.service';
import type { TranscriptionQueueState } from '../call-intelligence/transcription-jobs.store';
import { TranscriptionMetrics } from './transcription-metrics';
import {
  CDR_BATCH_PATHS,
  CDR_INGEST_RESULTS,
  type CdrBatchPath,
  type CdrIngestResult,
} from '../cdrs/cdr-ingest-metrics';

export const DATA_LIFECYCLE_ACTIONS = [
  'dropped',
  'deleted',
  'masked',
  'recordings_deleted',
  'notifications_deleted',
  'conversions_deleted',
  'moved_from_default',
] as const;
export type DataLifecycleAction = (typeof DATA_LIFECYCLE_ACTIONS)[number];
export const CUSTOMER_EVENT_RESULTS = ['processed', 'malformed', 'failed'] as const;
export type CustomerEventResultKind = (typeof CUSTOMER_EVENT_RESULTS)[number];

export interface ManagementMetricsDeps {
  /** Every partner; the pool gauges have one series per partner (label `partner` = advId). */
  partners: { list(): Promise<ReadonlyArray<{ id: string; name: string }>> };
  /** GET /number_pools' own computation (inventory in Postgres, live bindings in Redis). */
  pools: { usage(partner: { id: string; name: string }, now: Date): Promise<PoolUsage> };
  outbox: OutboxStatusCounts;
  /** The transcription queue's state, read at scrape time. */
  transcriptionQueue: { state(now: Date): Promise<TranscriptionQueueState> };
  /** Each outbox's rows waiting for delivery (db/leased-queue.ts, QueueBacklog), read on scrape. */
  backlogs: Record<OutboxName, { backlog(): Promise<QueueBacklog> }>;
  clock: () => Date;
  logger: Logger;
}

interface PoolSnapshot {
  partner: string;
  size: number;
  bound: number;
}

/**
 * The management service's metrics (docs/operations.md, Metrics). Counters are counted as things
 * happen; pool and outbox gauges are read from the stores when Prometheus scrapes, so they are
 * right on every replica without any replica keeping state.
 */
export class ManagementMetrics {
  readonly registry: Registry;
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly cdrs: FixedCounter<CdrIngestResult>;
  private readonly customerEvents: FixedCounter<CustomerEventResultKind>;
  private readonly collectionErrors: FixedCounter<'pools' | 'outbox' | 'transcription'>;
  private readonly lifecycleRecords: FixedCounter<DataLifecycleAction>;
  private readonly lifecycleRuns: FixedCounter<'ok' | 'failed'>;
  private readonly rateLimits: FixedCounter<'limited' | 'unavailable'>;
  private readonly cdrBatches: FixedCounter<CdrBatchPath>;
  private readonly storeRefusals: FixedCounter<ManagementStore>;
  private readonly defaultPartition: Gauge;
  private readonly poolExhaustedHours: Counter<'partner'>;
  private readonly poolEvaluations: Counter<'partner' | 'outcome'>;
  private readonly poolCarrierErrors: Counter<'partner' | 'code'>;
  /** One read per scrape, shared by the two backlog gauges (collected concurrently). */
  private backlogRead: Promise<Array<[OutboxName, QueueBacklog]> | null> | undefined;
  /** One store read per scrape, shared by the three pool gauges (collected concurrently). */
  private poolRead: Promise<PoolSnapshot[] | null> | undefined;

  /** What the transcription worker counts (docs/call-intelligence.md, The queue). */
  readonly transcription: TranscriptionMetrics;

  constructor(private readonly deps: ManagementMetricsDeps) {
    const registry = createMetricsRegistry();
    this.registry = registry;
    this.transcription = new TranscriptionMetrics(registry, {
      queue: deps.transcriptionQueue,
      clock: deps.clock,
      logger: deps.logger,
      onCollectionError: () => this.collectionErrors.inc(this.collectionErrors.indexOf('transcription')),
    });
    this.httpRequests = new Counter({
      name: 'trackline_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.cdrs = new FixedCounter(registry, {
      name: 'trackline_cdrs_ingested_total',
      help: 'Call records received on POST /telephony/cdrs: stored, duplicate (call_id stored before), or not stored by reason: invalid (refused by an input rule), unknown_number, unavailable (store unreachable, retry), error (unexpected, logged).',
      label: 'result',
      values: CDR_INGEST_RESULTS,
    });
    this.customerEvents = new FixedCounter(registry, {
      name: 'trackline_customer_events_total',
      help: 'Customer-seen stream entries: processed, malformed (skipped for good) or failed (left pending, retried).',
      label: 'result',
      values: CUSTOMER_EVENT_RESULTS,
    });
    this.collectionErrors = new FixedCounter(registry, {
      name: 'trackline_metrics_collection_errors_total',
      help: 'Scrapes whose store reads failed, by collector; those gauges are then left out of the scrape.',
      label: 'collector',
      values: ['pools', 'outbox', 'transcription'],
    });
    this.lifecycleRecords = new FixedCounter(registry, {
      name: 'trackline_data_lifecycle_records_total',
      help: 'Call records handled by the daily data lifecycle run on this replica: dropped (whole months), deleted, masked, recordings_deleted, notifications_deleted, conversions_deleted, moved_from_default.',
      label: 'action',
      values: DATA_LIFECYCLE_ACTIONS,
    });
    this.lifecycleRuns = new FixedCounter(registry, {
      name: 'trackline_data_lifecycle_runs_total',
      help: 'Daily data lifecycle runs on this replica, by result.',
      label: 'result',
      values: ['ok', 'failed'],
    });
    this.rateLimits = new FixedCounter(registry, {
      name: 'trackline_rate_limit_total',
      help: 'Partner requests refused by the rate limit (limited), or let through because the limiter could not reach Redis (unavailable).',
      label: 'result',
      values: ['limited', 'unavailable'],
    });
    this.cdrBatches = new FixedCounter(registry, {
      name: 'trackline_cdr_batches_total',
      help: 'Batches of call records stored in one transaction (one_transaction), or record by record after the batch could not be (per_record).',
      label: 'path',
      values: CDR_BATCH_PATHS,
    });
    this.storeRefusals = new FixedCounter(registry, {
      name: 'trackline_store_refusals_total',
      help: 'Requests answered 503 because a store was unreachable, by store (docs/operations.md, Store outages).',
      label: 'store',
      values: MANAGEMENT_STORES,
    });
    this.poolExhaustedHours = new Counter({
      name: 'trackline_pool_exhausted_total',
      help: "Partner-hours whose recycled share of bindings passed the partner's pool-exhausted-share, raised by this replica's pool telemetry rollup (each partner-hour once across replicas; docs/pool-sizing.md).",
      labelNames: ['partner'],
      registers: [registry],
    });
    this.poolEvaluations = new Counter({
      name: 'trackline_pool_evaluations_total',
      help: "Evaluations of a pool's autoscaling policy on this replica, by outcome: grew, shrank, unchanged, failed (docs/pool-sizing.md, Autoscaling).",
      labelNames: ['partner', 'outcome'],
      registers: [registry],
    });
    this.poolCarrierErrors = new Counter({
      name: 'trackline_pool_carrier_errors_total',
      help: "Pool evaluations stopped by the partner's carrier, by its error code (Twilio's, else the HTTP status); the pool stays as it was and the next evaluation tries again.",
      labelNames: ['partner', 'code'],
      registers: [registry],
    });
    this.defaultPartition = new Gauge({
      name: 'trackline_cdrs_default_partition_records',
      help: 'Call records in cdrs_default (outside every monthly partition) after the last lifecycle run here.',
      registers: [registry],
    });
    const poolGauge = (name: string, help: string, value: (pool: PoolSnapshot) => number | null) => {
      const gauge: Gauge<'partner'> = new Gauge({
        name,
        help,
        labelNames: ['partner'],
        registers: [registry],
        collect: async () => {
          const pools = await this.pools();
          // Partners deleted since the last scrape lose their series.
          gauge.reset();
          for (const pool of pools ?? []) {
            const current = value(pool);
            if (current !== null) gauge.set({ partner: pool.partner }, current);
          }
        },
      });
    };
    poolGauge('trackline_pool_size', 'Pool numbers in the partner inventory.', (pool) => pool.size);
    poolGauge(
      'trackline_pool_bound',
      'Pool numbers with a live binding (session or hold-back).',
      (pool) => pool.bound,
    );
    poolGauge(
      'trackline_pool_utilisation',
      'Pool utilisation, bound / size (no series for an empty pool).',
      (pool) => (pool.size === 0 ? null : pool.bound / pool.size),
    );
    const outbox: Gauge<'status'> = new Gauge({
      name: 'trackline_notification_outbox',
      help: 'Notification outbox rows by status.',
      labelNames: ['status'],
      registers: [registry],
      collect: async () => {
        const counts = await this.outboxCounts();
        outbox.reset();
        if (counts === null) return;
        for (const status of OUTBOX_STATUSES) outbox.set({ status }, counts[status]);
      },
    });
    const backlogGauge = (name: string, help: string, value: (backlog: QueueBacklog) => number) => {
      const gauge: Gauge<'outbox'> = new Gauge({
        name,
        help,
        labelNames: ['outbox'],
        registers: [registry],
        collect: async () => {
          const backlogs = await this.backlogs();
          // A failed read leaves the series out rather than showing stale figures.
          gauge.reset();
          for (const [outbox, backlog] of backlogs ?? []) gauge.set({ outbox }, value(backlog));
        },
      });
    };
    backlogGauge(
      'trackline_outbox_pending',
      'Outbox rows not delivered yet (waiting, in backoff or leased), by outbox; rows of paused webhooks and integrations left out.',
      (backlog) => backlog.pending,
    );
    backlogGauge(
      'trackline_outbox_oldest_pending_age_seconds',
      'How long the outbox row that fell due longest ago has waited for a worker, by outbox; 0 when none is due (rows in backoff are not due).',
      (backlog) => backlog.oldestDueSeconds,
    );
  }

  httpRequest(method: string, route: string, status: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
  }

  rateLimit(result: 'limited' | 'unavailable'): void {
    this.rateLimits.inc(this.rateLimits.indexOf(result));
  }

  cdrIngested(result: CdrIngestResult, count = 1): void {
    if (count > 0) this.cdrs.inc(CDR_INGEST_RESULTS.indexOf(result), count);
  }

  /** A request refused because `store` was unreachable. */
  storeRefused(store: ManagementStore): void {
    this.storeRefusals.inc(MANAGEMENT_STORES.indexOf(store));
  }

  cdrBatch(path: CdrBatchPath): void {
    this.cdrBatches.inc(CDR_BATCH_PATHS.indexOf(path));
  }

  /** One run of the data lifecycle job; null when it failed. */
  dataLifecycleRun(report: DataLifecycleReport | null): void {
    if (report === null) {
      this.lifecycleRuns.inc(this.lifecycleRuns.indexOf('failed'));
      return;
    }
    this.lifecycleRuns.inc(this.lifecycleRuns.indexOf('ok'));
    const counts: Record<DataLifecycleAction, number> = {
      dropped: report.recordsDropped,
      deleted: report.recordsDeleted,
      masked: report.recordsMasked,
      recordings_deleted: report.recordingsDeleted,
      notifications_deleted: report.notificationsDeleted,
      conversions_deleted: report.conversionsDeleted,
      moved_from_default: report.recordsMovedFromDefault,
    };
    for (const action of DATA_LIFECYCLE_ACTIONS)
      if (counts[action] > 0)
        this.lifecycleRecords.inc(this.lifecycleRecords.indexOf(action), counts[action]);
    this.defaultPartition.set(report.recordsInDefault);
  }

  /** A partner-hour marked exhausted by the pool telemetry rollup. */
  poolExhausted(advId: string): void {
    this.poolExhaustedHours.inc({ partner: advId });
  }

  /** One evaluation of a pool's autoscaling, and the carrier's error when one stopped it. */
  poolEvaluated(advId: string, outcome: ResizeOutcome, failure: CarrierFailure | null): void {
    this.poolEvaluations.inc({ partner: advId, outcome });
    if (failure !== null) this.poolCarrierErrors.inc({ partner: advId, code: failure.code });
  }

  customerEvent(result: CustomerEventResultKind): void {
    this.customerEvents.inc(CUSTOMER_EVENT_RESULTS.indexOf(result));
  }

  private backlogs(): Promise<Array<[OutboxName, QueueBacklog]> | null> {
    this.backlogRead ??= this.readBacklogs().finally(() => {
      this.backlogRead = undefined;
    });
    return this.backlogRead;
  }

  private async readBacklogs(): Promise<Array<[OutboxName, QueueBacklog]> | null> {
    try {
      const outboxes = Object.entries(this.deps.backlogs) as Array<
        [OutboxName, { backlog(): Promise<QueueBacklog> }]
      >;
      return await Promise.all(
        outboxes.map(async ([outbox, queue]): Promise<[OutboxName, QueueBacklog]> => [
          outbox,
          await queue.backlog(),
        ]),
      );
    } catch (error) {
      this.collectionErrors.inc(1);
      this.deps.logger.warn({ err: error }, 'outbox backlog metrics not collected');
      return null;
    }
  }

  private pools(): Promise<PoolSnapshot[] | null> {
    this.poolRead ??= this.readPools().finally(() => {
      this.poolRead = undefined;
    });
    return this.poolRead;
  }

  private async readPools(): Promise<PoolSnapshot[] | null> {
    try {
      const now = this.deps.clock();
      const partners = await this.deps.partners.list();
      return await Promise.all(
        partners.map(async (partner) => {
          const usage = await this.deps.pools.usage(partner, now);
          return { partner: partner.name, size: usage.size, bound: usage.bound };
        }),
      );
    } catch (error) {
      this.collectionErrors.inc(0);
      this.deps.logger.warn({ err: error }, 'pool metrics not collected');
      return null;
    }
  }

  private async outboxCounts(): Promise<Awaited<ReturnType<OutboxStatusCounts['countByStatus']>> | null> {
    try {
      return await this.deps.outbox.countByStatus();
    } catch (error) {
      this.collectionErrors.inc(1);
      this.deps.logger.warn({ err: error }, 'outbox metrics not collected');
      return null;
    }
  }
}
