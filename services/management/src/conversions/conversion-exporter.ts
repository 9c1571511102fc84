import { PollingWorker, type Logger, outageAwareRounds, type StoreOutages } from '@trackline/platform';
import type { Cdr } from '../cdrs/cdr';
import { nextAttemptAt } from '../notifications/retry-policy';
import type { ConversionOutboxQueue, ConversionToSend } from './conversion-outbox.store';
import { ga4Body, GA4_MAX_AGE_MS } from './ga4-event';
import { clickConversion } from './google-ads-conversion';
import type { GoogleAdsUploader } from './google-ads-uploader';
import { PermanentExportError, postToGoogle, RetryableExportError } from './google-http';

export interface ConversionExporterSettings {
  /** Unique per worker instance: the lease is checked against it. */
  workerId: string;
  maxAttempts: number;
  baseDelayMs: number;
  /** At least twice the request timeout, so a live attempt never outlasts its lease. */
  leaseMs: number;
  pollMs: number;
  batchSize: number;
  ga4BaseUrl: string;
  timeoutMs: number;
}

export interface ConversionExporterDeps {
  queue: ConversionOutboxQueue;
  /** `start`: the record's, when the row kept it (null for rows queued before it was kept). */
  records: { findById(partnerId: string, id: string, start: Date | null): Promise<Cdr | null> };
  googleAds: Pick<GoogleAdsUploader, 'upload'>;
  logger: Logger;
  /** Where a round refused by a store outage is told; without it every failure is logged. */
  outages?: StoreOutages<string>;
  clock: () => Date;
}

type Settle = { kind: 'sent' } | { kind: 'retry'; reason: string } | { kind: 'dead'; reason: string };

/**
 * Delivers the conversion outbox (docs/conversions.md, Delivery), in rounds: claim a fair share per
 * partner under a lease, send GA4 events one by one and each partner's Google Ads conversions in
 * one upload, then mark every row sent, pending again with backoff, or dead with its reason. At
 * least once; Google Ads counts a repeat once by its order id.
 */
export class ConversionExporter {
  private readonly loop: PollingWorker;
  private readonly log: Logger;

  constructor(
    private readonly deps: ConversionExporterDeps,
    private readonly settings: ConversionExporterSettings,
  ) {
    this.log = deps.logger.child({ component: 'conversion-exporter', worker: settings.workerId });
    this.loop = new PollingWorker({
      name: 'conversion exporter',
      // A full round may have left more due: another at once; else the poll interval.
      round: async () => ((await this.runOnce()) >= settings.batchSize ? 'again' : 'idle'),
      idleMs: settings.pollMs,
      // A store outage is told once for the thread's workers (docs/operations.md, Store outages).
      ...outageAwareRounds(deps.outages, this.log, 'conversion'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Rows were just committed for this worker (db/outbox-bell.ts): the idle wait ends now. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming; resolves when the round in flight has finished (each request is bounded by the timeout). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One round: what is due, delivered and marked; for tests. Answers how many rows it took. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock();
    const rows = await this.deps.queue.claim(
      this.settings.workerId,
      now,
      new Date(now.getTime() + this.settings.leaseMs),
      this.settings.batchSize,
    );
    const byPartner = new Map<string, ConversionToSend[]>();
    for (const row of rows) byPartner.set(row.partnerId, [...(byPartner.get(row.partnerId) ?? []), row]);
    await Promise.all([...byPartner.values()].map((partnerRows) => this.deliverPartner(partnerRows)));
    return rows.length;
  }

  private async deliverPartner(rows: ConversionToSend[]): Promise<void> {
    const partnerId = rows[0]!.partnerId;
    const ga4 = rows.filter((row) => row.destination === 'ga4');
    const ads = rows.filter((row) => row.destination === 'google_ads');
    for (const row of ga4) await this.settle(row, await this.sendGa4(row));
    if (ads.length > 0) await this.sendGoogleAds(partnerId, ads);
  }

  private async sendGa4(row: ConversionToSend): Promise<Settle> {
    try {
      const integration = row.integration;
      if (integration.kind !== 'ga4') throw notItsKind(row);
      const cdr = await this.record(row);
      if (this.deps.clock().getTime() - row.occurredAt.getTime() > GA4_MAX_AGE_MS)
        return { kind: 'dead', reason: 'older than the 72 hours GA4 accepts' };
      const query = new URLSearchParams({
        measurement_id: integration.measurementId,
        api_secret: integration.secrets.apiSecret,
      });
      const answer = await postToGoogle(
        `${this.settings.ga4BaseUrl}/mp/collect?${query.toString()}`,
        { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ga4Body(cdr, row)) },
        this.settings.timeoutMs,
      );
      if (answer.status >= 200 && answer.status < 300) return { kind: 'sent' };
      return { kind: 'retry', reason: `GA4 answered ${answer.status}` };
    } catch (error) {
      return failed(error);
    }
  }

  private async sendGoogleAds(partnerId: string, rows: ConversionToSend[]): Promise<void> {
    const sendable: { row: ConversionToSend; conversion: Record<string, unknown> }[] = [];
    // The row's lane, read by its claim: a partner has one Google Ads integration, so all rows' here.
    const integration = rows[0]!.integration;
    if (integration.kind !== 'google_ads') {
      for (const row of rows) await this.settle(row, failed(notItsKind(row)));
      return;
    }
    for (const row of rows) {
      try {
        sendable.push({ row, conversion: clickConversion(await this.record(row), row, integration) });
      } catch (error) {
        await this.settle(row, failed(error));
      }
    }
    if (sendable.length === 0) return;
    let verdicts;
    try {
      verdicts = await this.deps.googleAds.upload(
        partnerId,
        integration,
        sendable.map((entry) => entry.conversion),
      );
    } catch (error) {
      for (const { row } of sendable) await this.settle(row, failed(error));
      return;
    }
    for (const [index, { row }] of sendable.entries()) {
      const verdict = verdicts[index]!;
      await this.settle(
        row,
        verdict.outcome === 'accepted' || verdict.outcome === 'already'
          ? { kind: 'sent' }
          : verdict.outcome === 'retry'
            ? { kind: 'retry', reason: `Google Ads: ${verdict.reason}` }
            : { kind: 'dead', reason: `Google Ads refused the conversion: ${verdict.reason}` },
      );
    }
  }

  private async record(row: ConversionToSend): Promise<Cdr> {
    const cdr = await this.deps.records.findById(row.partnerId, row.cdrId, row.cdrStart);
    if (cdr === null) throw new PermanentExportError(`call record ${row.cdrId} no longer exists`);
    return cdr;
  }

  private async settle(row: ConversionToSend, settle: Settle): Promise<void> {
    const log = this.log.child({ conversion: row.id, destination: row.destination, attempt: row.attempts });
    try {
      const now = this.deps.clock();
      if (settle.kind === 'sent') {
        if (!(await this.deps.queue.complete(row.id, this.settings.workerId, now)))
          log.warn('lease lost before the mark; another worker owns the conversion now');
        return;
      }
      const retryAt = settle.kind === 'dead' ? null : nextAttemptAt(row.attempts, this.settings, now);
      log.warn(
        { reason: settle.reason, retryAt },
        retryAt === null ? 'conversion dead' : 'conversion failed; will retry',
      );
      await this.deps.queue.fail(row.id, this.settings.workerId, settle.reason, retryAt);
    } catch (error) {
      log.error({ err: error }, 'could not record what became of the conversion');
    }
  }
}

/**
 * A row whose lane is not an integration of its destination's kind; never queued so. (A paused
 * integration's rows are not claimed; a removed one's are dropped with it.)
 */
function notItsKind(row: ConversionToSend): PermanentExportError {
  return new PermanentExportError(
    `integration ${row.integration.id} is not a ${row.destination} integration`,
  );
}

function failed(error: unknown): Settle {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof PermanentExportError) return { kind: 'dead', reason };
  if (error instanceof RetryableExportError) return { kind: 'retry', reason };
  // A network failure or timeout, or a fault of ours: worth another try.
  return { kind: 'retry', reason };
}
