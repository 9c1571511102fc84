import { PollingWorker, type Logger, outageAwareRounds, type StoreOutages } from '@trackline/platform';
import { PermanentDeliveryError } from '../notifications/delivery-channel';
import { MAX_RETRY_DELAY_MS, nextAttemptAt } from '../notifications/retry-policy';
import type {
  AttemptMark,
  ClaimedWebhookDelivery,
  SettledAttempt,
  WebhookDeliveryQueue,
  WebhookHealth,
} from './webhook-deliveries.store';
import { newClaimRound, type ClaimRound, type WebhookPayloads } from './webhook-payloads';
import type { WebhookAnswer, WebhookSender } from './webhook-sender';
import type { WebhookDisabler } from './webhook-disabling';

export interface WebhookDispatcherSettings {
  /** Unique per worker instance: the lease is checked against it. */
  workerId: string;
  maxAttempts: number;
  baseDelayMs: number;
  /** Must be at least twice the sender's timeout, so a live attempt never outlasts its lease. */
  leaseMs: number;
  pollMs: number;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** Deliveries in flight at once to one webhook. */
  perEndpoint: number;
  /** A webhook failing every attempt this long is disabled (WEBHOOK_DISABLE_AFTER_SECONDS). */
  disableAfterMs: number;
}

export interface WebhookDispatcherDeps {
  queue: WebhookDeliveryQueue;
  payloads: Pick<WebhookPayloads, 'body'>;
  sender: Pick<WebhookSender, 'send' | 'close'>;
  /** Disables a webhook whose failures lasted `disableAfterMs`; left out, none is disabled. */
  disabler?: WebhookDisabler;
  logger: Logger;
  /** Where a round refused by a store outage is told; without it every failure is logged. */
  outages?: StoreOutages<string>;
  clock: () => Date;
}

/** One attempt's request and what came of it: the receiver's answer, or why there was none. */
interface Exchange {
  requestedAt: Date;
  started: number;
  body: string;
  answer: WebhookAnswer | null;
  /** Set when `answer` is null. */
  error: unknown;
}

// Answers that say "later" rather than "never" (docs/webhooks.md): every 4xx but these is final.
const RETRYABLE_CLIENT_STATUSES = new Set([408, 429]);

/**
 * Delivers the webhook outbox (docs/webhooks.md), in the notification worker process.
 *
 * Deliveries do not go in lock-step rounds: each claimed row is sent on its own, and a slot that
 * frees up is filled at once. A webhook holds at most `perEndpoint` slots, so an endpoint that
 * answers slowly (up to the timeout) or not at all delays only its own queue, never another
 * partner's.
 *
 * Guarantees are those of the notification outbox: rows are claimed under FOR UPDATE SKIP LOCKED
 * with a lease; a worker that dies leaves its rows to be taken again when the lease runs out; the
 * final mark checks the lease in the same statement. At least once: a crash after the receiver
 * accepted and before the mark commits sends it again, with the same `webhook-id`.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * The last claim left due deliveries for want of a slot (WebhookClaim.leftWaiting): only then
   * does a slot that frees up start a claim at once. Otherwise nothing due waits for a slot, and the
   * claim would come back empty; deliveries committed later ring the bell, the poll finds the rest.
   */
  private leftWaiting = false;
  private readonly loop: PollingWorker;
  private readonly log: Logger;

  constructor(
    private readonly deps: WebhookDispatcherDeps,
    private readonly settings: WebhookDispatcherSettings,
  ) {
    this.log = deps.logger.child({ component: 'webhook-dispatcher', worker: settings.workerId });
    this.loop = new PollingWorker({
      name: 'webhook dispatcher',
      round: () => this.fillFreeSlots(),
      // Fewer due than free slots: wait for the poll. Every slot filled: until one frees up (wake).
      idleMs: settings.pollMs,
      // A store outage is told once for the thread's workers (docs/operations.md, Store outages).
      ...outageAwareRounds(deps.outages, this.log, 'webhook claim'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Rows were just committed for this worker (db/outbox-bell.ts): the idle wait ends now. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops claiming and lets the deliveries in flight finish (each is bounded by the timeout). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.inFlight);
    this.deps.sender.close();
  }

  /** Claims what is due (up to the free slots), delivers it and waits for all of it; for tests. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.settings.concurrency);
    const round = newClaimRound();
    await Promise.all(claimed.map((row) => this.process(row, round)));
    return claimed.length;
  }

  /** Claims up to the free slots and starts each delivery on its own, without waiting for it. */
  private async fillFreeSlots(): Promise<'idle'> {
    const free = this.settings.concurrency - this.inFlight.size;
    if (free > 0) {
      const rows = await this.claim(free);
      // The rows claimed together read each partner and record once (docs/webhooks.md, How it runs).
      const round = newClaimRound();
      for (const row of rows) this.track(this.process(row, round));
    }
    return 'idle';
  }

  private track(delivery: Promise<void>): void {
    const tracked = delivery.finally(() => {
      this.inFlight.delete(tracked);
      // A freed slot (and the endpoint's own slot) can take a row left waiting for one now.
      if (this.leftWaiting) this.loop.wake();
    });
    this.inFlight.add(tracked);
  }

  private async claim(limit: number): Promise<ClaimedWebhookDelivery[]> {
    const now = this.deps.clock();
    const { deliveries, leftWaiting } = await this.deps.queue.claim(
      this.settings.workerId,
      now,
      new Date(now.getTime() + this.settings.leaseMs),
      limit,
      this.settings.perEndpoint,
      this.settings.concurrency,
    );
    this.leftWaiting = leftWaiting;
    return deliveries;
  }

  private async process(row: ClaimedWebhookDelivery, round: ClaimRound): Promise<void> {
    const log = this.log.child({ delivery: row.id, webhook: row.webhookId, attempt: row.attempts });
    try {
      if (row.attempts > this.settings.maxAttempts) {
        // Its last attempt's worker died mid-delivery; it may or may not have arrived.
        await this.settle(row, log, { statusCode: null, error: 'worker lost during the last attempt' }, null);
        return;
      }
      const body = JSON.stringify(await this.deps.payloads.body(row, round));
      const requestedAt = this.deps.clock();
      const started = performance.now();
      let exchange: Exchange;
      try {
        const answer = await this.deps.sender.send({
          url: row.url,
          messageId: row.messageId,
          timestamp: requestedAt,
          body,
          secret: row.secret,
        });
        exchange = { requestedAt, started, body, answer, error: null };
      } catch (error) {
        exchange = { requestedAt, started, body, answer: null, error };
      }
      await this.logAndMark(row, log, exchange, this.markOf(row, log, exchange));
    } catch (error) {
      const message = messageOf(error);
      const retryAt = error instanceof PermanentDeliveryError ? null : this.retryAt(row, null);
      log.warn(
        { err: error, retryAt },
        retryAt === null ? 'webhook delivery dead' : 'webhook delivery failed; will retry',
      );
      await this.settle(row, log, { statusCode: null, error: message }, retryAt).catch((markError: unknown) =>
        // The lease runs out and another round retries it.
        log.error({ err: markError }, 'could not record the failed webhook delivery'),
      );
    }
  }

  /** What an attempt makes of the delivery: sent, retried (when, by the backoff and Retry-After) or dead. */
  private markOf(row: ClaimedWebhookDelivery, log: Logger, exchange: Exchange): AttemptMark {
    const { answer } = exchange;
    if (answer === null) {
      const error = exchange.error;
      const retryAt = error instanceof PermanentDeliveryError ? null : this.retryAt(row, null);
      log.warn(
        { err: error, retryAt },
        retryAt === null ? 'webhook delivery dead' : 'webhook delivery failed; will retry',
      );
      return { sent: false, statusCode: null, error: messageOf(error), retryAt };
    }
    const status = answer.statusCode;
    if (status >= 200 && status < 300) return { sent: true, statusCode: status, now: this.deps.clock() };
    const error = `receiver answered ${status}${answer.body === '' ? '' : `: ${answer.body.slice(0, 200)}`}`;
    const final = status >= 400 && status < 500 && !RETRYABLE_CLIENT_STATUSES.has(status);
    const retryAt = final ? null : this.retryAt(row, answer.retryAfterSeconds);
    log.warn(
      { status, retryAt },
      retryAt === null ? 'webhook delivery dead' : 'webhook delivery failed; will retry',
    );
    return { sent: false, statusCode: status, error, retryAt };
  }

  /**
   * The attempt into the delivery log (docs/webhooks.md, Delivery log) and the delivery's mark, in
   * one statement; a webhook whose failures now span `disableAfterMs` is disabled. A log that
   * cannot be written costs the log entry, not the delivery: the mark is then made alone.
   */
  private async logAndMark(
    row: ClaimedWebhookDelivery,
    log: Logger,
    exchange: Exchange,
    mark: AttemptMark,
  ): Promise<void> {
    const { answer } = exchange;
    const attempt = {
      deliveryId: row.id,
      webhookId: row.webhookId,
      attempt: row.attempts,
      requestedAt: exchange.requestedAt,
      durationMs: Math.round(performance.now() - exchange.started),
      url: row.url,
      bodyBytes: Buffer.byteLength(exchange.body),
      statusCode: answer?.statusCode ?? null,
      error: mark.sent
        ? null
        : answer === null
          ? messageOf(exchange.error)
          : `receiver answered ${answer.statusCode}`,
      responseBody: answer?.body ?? null,
      accepted: mark.sent,
    };
    let settled: SettledAttempt;
    try {
      settled = await this.deps.queue.logAndMark(attempt, this.settings.workerId, mark);
    } catch (error) {
      log.error({ err: error }, 'could not log the webhook attempt');
      const owned = mark.sent
        ? await this.deps.queue.complete(row.id, this.settings.workerId, mark.statusCode, mark.now)
        : await this.deps.queue.fail(row.id, this.settings.workerId, mark, mark.retryAt);
      if (!owned) log.warn('lease lost before the mark; another worker owns the delivery now');
      return;
    }
    if (!settled.owned) log.warn('lease lost before the mark; another worker owns the delivery now');
    await this.disableIfFailingTooLong(row, log, settled.health).catch((error: unknown) =>
      log.error({ err: error }, 'could not disable the failing webhook'),
    );
  }

  private async disableIfFailingTooLong(
    row: ClaimedWebhookDelivery,
    log: Logger,
    health: WebhookHealth,
  ): Promise<void> {
    const now = this.deps.clock();
    if (
      this.deps.disabler !== undefined &&
      health.state === '0' &&
      health.failingSince !== null &&
      now.getTime() - health.failingSince.getTime() >= this.settings.disableAfterMs
    ) {
      if (await this.deps.disabler.disable(row.webhookId, now))
        log.warn({ failingSince: health.failingSince }, 'webhook disabled: every attempt failed');
    }
  }

  /** The backoff, or later when the receiver asked for it with Retry-After (at most an hour). */
  private retryAt(row: ClaimedWebhookDelivery, retryAfterSeconds: number | null): Date | null {
    const now = this.deps.clock();
    const backoff = nextAttemptAt(row.attempts, this.settings, now);
    if (backoff === null || retryAfterSeconds === null) return backoff;
    const asked = now.getTime() + Math.min(retryAfterSeconds * 1000, MAX_RETRY_DELAY_MS);
    return new Date(Math.max(backoff.getTime(), asked));
  }

  private async settle(
    row: ClaimedWebhookDelivery,
    log: Logger,
    failure: { statusCode: number | null; error: string },
    retryAt: Date | null,
  ): Promise<void> {
    const owned = await this.deps.queue.fail(row.id, this.settings.workerId, failure, retryAt);
    if (!owned) log.warn('lease lost before the mark; another worker owns the delivery now');
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
