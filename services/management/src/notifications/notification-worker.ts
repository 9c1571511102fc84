import { PollingWorker, type Logger, outageAwareRounds, type StoreOutages } from '@trackline/platform';
import { maskNumbersInText } from '@trackline/domain';
import { PermanentDeliveryError, type DeliveryChannel, type OutboundNotification } from './delivery-channel';
import type { ClaimedNotification, OutboxStore } from './outbox.store';
import type { NotificationChannel, NotificationKind } from './outbox-writer';
import { nextAttemptAt } from './retry-policy';

export interface NotificationWorkerSettings {
  /** Unique per worker instance: the lease is checked against it. */
  workerId: string;
  maxAttempts: number;
  baseDelayMs: number;
  leaseMs: number;
  pollMs: number;
  /** Rows claimed per round; they are delivered concurrently. */
  batchSize: number;
}

/**
 * The voicemail audio a new-voicemail e-mail attaches, read when the e-mail is built; the records
 * feature implements it on its table (cdrs/recording.reader.ts).
 */
export interface RecordingReader {
  /** Null when the CDR or its recording does not exist. */
  read(cdrId: string): Promise<Buffer | null>;
}

export interface NotificationWorkerDeps {
  store: OutboxStore;
  /**
   * null: not configured; such notifications are logged and marked `logged` (docs/notifications.md, The
   * worker).
   */
  channels: Record<NotificationChannel, DeliveryChannel | null>;
  recordings: RecordingReader;
  logger: Logger;
  /** Where a round refused by a store outage is told; without it every failure is logged. */
  outages?: StoreOutages<string>;
  clock: () => Date;
  /**
   * Kinds whose message is built when it is sent rather than stored in the row (the monthly
   * report, docs/reports.md). A composer's PermanentDeliveryError kills the row at once.
   */
  composers?: Partial<Record<NotificationKind, MessageComposer>>;
}

/** Builds the message of a claimed row of its kind. */
export type MessageComposer = (row: ClaimedNotification) => Promise<OutboundNotification>;

/**
 * Delivers the notification outbox (docs/notifications.md, The worker).
 *
 * Guarantees: a row is claimed under FOR UPDATE SKIP LOCKED with a lease, so two workers never
 * hold it at once; a worker that dies leaves its rows to be taken again when the lease runs out, so
 * nothing is lost. The final mark checks the lease in the same statement, so a worker that lost
 * its lease changes nothing. Each delivery is cut off at half the lease, so a live worker's lease
 * never runs out under a send.
 *
 * The one window left is at-least-once: a crash (or lost database connection) after the receiver
 * accepted the message and before the mark commits makes another worker send it again. Every
 * attempt of a row carries the same delivery key — the SMS gateway's idempotency_key and the
 * e-mail's Message-ID — so the gateway drops the repeat and a mail client or filter can.
 */
export class NotificationWorker {
  private readonly loop: PollingWorker;
  private readonly log: Logger;

  constructor(
    private readonly deps: NotificationWorkerDeps,
    private readonly settings: NotificationWorkerSettings,
  ) {
    this.log = deps.logger.child({ component: 'notification-worker', worker: settings.workerId });
    this.loop = new PollingWorker({
      name: 'notification worker',
      // A full batch means more may be due: go again at once.
      round: async () => ((await this.runOnce()) < settings.batchSize ? 'idle' : 'again'),
      idleMs: settings.pollMs,
      // A store outage is told once for the thread's workers (docs/operations.md, Store outages).
      ...outageAwareRounds(deps.outages, this.log, 'notification'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Rows were just committed for this worker (db/outbox-bell.ts): the idle wait ends now. */
  wake(): void {
    this.loop.wake();
  }

  /** Finishes the round in flight (its rows are marked), then returns. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One round: claim what is due, deliver it, mark it. Returns how many rows were claimed. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock();
    const leaseUntil = new Date(now.getTime() + this.settings.leaseMs);
    const claimed = await this.deps.store.claim(
      this.settings.workerId,
      now,
      leaseUntil,
      this.settings.batchSize,
    );
    await Promise.all(claimed.map((row) => this.process(row)));
    return claimed.length;
  }

  /**
   * Claims the rows named (due or not, unless a live worker holds them), delivers and marks them
   * as a round does. Returns how many it claimed. For an operator command that sends now.
   */
  async runFor(ids: readonly string[]): Promise<number> {
    const store = this.deps.store;
    if (store.claimIds === undefined) throw new Error('this outbox store cannot claim rows by id');
    const now = this.deps.clock();
    const leaseUntil = new Date(now.getTime() + this.settings.leaseMs);
    let claimed = 0;
    // In batches, so a long list is delivered with the same concurrency as a round.
    for (let first = 0; first < ids.length; first += this.settings.batchSize) {
      const rows = await store.claimIds(
        this.settings.workerId,
        ids.slice(first, first + this.settings.batchSize),
        this.deps.clock(),
        leaseUntil,
      );
      await Promise.all(rows.map((row) => this.process(row)));
      claimed += rows.length;
    }
    return claimed;
  }

  private async process(row: ClaimedNotification): Promise<void> {
    const log = this.log.child({ notification: row.id, channel: row.channel, attempt: row.attempts });
    try {
      if (row.attempts > this.settings.maxAttempts) {
        // Its last attempt's worker died mid-delivery; it may or may not have gone out.
        await this.settle(row, log, 'worker lost during the last attempt', null);
        return;
      }
      const channel = this.deps.channels[row.channel];
      if (channel === null) {
        // The text names the caller, who is not the log's business (docs/privacy.md).
        log.info(
          {
            kind: row.kind,
            recipient: row.recipient,
            subject: row.payload.subject === undefined ? undefined : maskNumbersInText(row.payload.subject),
            text: maskNumbersInText(row.payload.text),
          },
          'notification not sent: no channel configured; logged instead',
        );
        await this.complete(row, log, 'logged');
        return;
      }
      await this.deliver(channel, await this.outbound(row));
      await this.complete(row, log, 'sent');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt =
        error instanceof PermanentDeliveryError
          ? null
          : nextAttemptAt(row.attempts, this.settings, this.deps.clock());
      log.warn(
        { err: error, retryAt },
        retryAt === null ? 'notification dead' : 'notification failed; will retry',
      );
      await this.settle(row, log, message, retryAt).catch((markError: unknown) =>
        // The lease runs out and another round retries it.
        log.error({ err: markError }, 'could not record the failed delivery'),
      );
    }
  }

  private async deliver(channel: DeliveryChannel, notification: OutboundNotification): Promise<void> {
    const timeout = AbortSignal.timeout(Math.floor(this.settings.leaseMs / 2));
    let onAbort: (() => void) | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      onAbort = () =>
        reject(new Error(`delivery timed out after ${Math.floor(this.settings.leaseMs / 2)} ms`));
      timeout.addEventListener('abort', onAbort, { once: true });
    });
    try {
      // A channel that ignores the signal is still cut off here, so the lease cannot run out under it.
      await Promise.race([channel.deliver(notification, timeout), timedOut]);
    } finally {
      if (onAbort !== undefined) timeout.removeEventListener('abort', onAbort);
    }
  }

  private async outbound(row: ClaimedNotification): Promise<OutboundNotification> {
    const composer = this.deps.composers?.[row.kind];
    if (composer !== undefined) return composer(row);
    const notification: OutboundNotification = {
      id: row.id,
      deliveryKey: row.deliveryKey,
      channel: row.channel,
      kind: row.kind,
      recipient: row.recipient,
      text: row.payload.text,
    };
    if (row.payload.subject !== undefined) notification.subject = row.payload.subject;
    if (row.attachmentCdrId !== null && row.payload.attachment !== undefined) {
      const content = await this.deps.recordings.read(row.attachmentCdrId);
      if (content === null) throw new PermanentDeliveryError(`CDR ${row.attachmentCdrId} has no recording`);
      notification.attachment = { ...row.payload.attachment, content };
    }
    return notification;
  }

  private async complete(row: ClaimedNotification, log: Logger, status: 'sent' | 'logged'): Promise<void> {
    const owned = await this.deps.store.complete(row.id, this.settings.workerId, status, this.deps.clock());
    if (!owned) log.warn({ status }, 'lease lost before the mark; another worker owns the notification now');
  }

  private async settle(
    row: ClaimedNotification,
    log: Logger,
    error: string,
    retryAt: Date | null,
  ): Promise<void> {
    const owned = await this.deps.store.fail(row.id, this.settings.workerId, error, retryAt);
    if (!owned) log.warn('lease lost before the mark; another worker owns the notification now');
  }
}
