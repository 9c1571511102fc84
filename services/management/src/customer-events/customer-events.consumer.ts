import { inConsumerSpan } from './customer-events.trace';
import { CUSTOMER_EVENTS_GROUP, isKeySafeAdvId, partnerKeys } from '@trackline/contracts';
import {
  DEFAULT_MAX_ERROR_BACKOFF_MS,
  PollingWorker,
  type Logger,
  type RedisConnection,
  type RoundOutcome,
  type StoreOutages,
} from '@trackline/platform';
import type { CustomerEventResult, StreamPartner } from './customer-events.service';
import { parseAutoClaimReply, parseReadGroupReply, type StreamEntry } from './stream-replies';

export interface CustomerEventsConsumerSettings {
  /** REDIS_KEY_PREFIX, the same the replacement service builds its keys with. */
  keyPrefix: string;
  /** Unique per process (hostname + pid): the group tracks pending entries per consumer name. */
  consumerName: string;
  /** XREADGROUP BLOCK (ms); also the idle poll when several streams are read one by one. */
  blockMs: number;
  /** XREADGROUP / XAUTOCLAIM COUNT: entries taken per stream per round. */
  batchSize: number;
  /** An entry pending this long (ms) in another consumer is taken over (that consumer crashed or hangs). */
  reclaimIdleMs: number;
  reclaimIntervalMs: number;
  /** How often the partner list is re-read, so a new partner's stream is consumed without a restart. */
  partnerRefreshMs: number;
  /**
   * Pause before an entry whose database write failed is tried again, and after a Redis error
   * (doubled after each further failed round in a row, up to 30 s).
   */
  retryDelayMs: number;
}

export interface CustomerEventsConsumerDeps {
  /** A connection of its own: blocking reads would stall every other command on a shared one. stop() closes it. */
  redis: RedisConnection;
  partners: { list(): Promise<StreamPartner[]> };
  /** Applies one stream's entries in one transaction; resolves with one result per entry after the commit. */
  events: {
    applyBatch(
      partner: StreamPartner,
      batch: ReadonlyArray<readonly string[]>,
    ): Promise<CustomerEventResult[]>;
  };
  logger: Logger;
  /** The app's store outages: a round refused by one is told there, once (docs/operations.md, Store outages). */
  outages?: StoreOutages<string>;
  /** Epoch ms; schedules refresh, reclaim and retries. */
  clock: () => number;
}

interface PartnerStream {
  partner: StreamPartner;
  key: string;
  groupReady: boolean;
  /**
   * Set when an entry failed: until then the stream is not read for new entries, and from then on
   * its own pending entries are read first (id 0), so a customer's events still apply in order.
   */
  retryAt: number | null;
}

// Consumers left behind by ended processes are removed from the group once they have nothing pending
// and have been idle this long; a live consumer removed by mistake is re-created by its next read.
const FORGOTTEN_CONSUMER_IDLE_MS = 60 * 60 * 1000;
// One reclaim round claims at most this many batches per stream, so reading new entries is not starved.
const MAX_RECLAIM_BATCHES = 10;

/**
 * Consumes every partner's customer-seen stream with the one consumer group (docs/redis-keys.md,
 * Customer-seen stream). Each entry is applied to Postgres and acked only after the commit; one the database
 * refused stays pending and is tried again; one that can never apply is logged and acked.
 *
 * Streams are per partner, each in its partner's Cluster slot. On a single Redis one XREADGROUP with
 * BLOCK reads all of them; on a Cluster a multi-key XREADGROUP across slots is a CROSSSLOT error, so
 * each stream is read by itself (concurrently, without BLOCK, pausing blockMs when all were empty).
 */
export class CustomerEventsConsumer {
  private readonly streams = new Map<string, PartnerStream>();
  private readonly loop: PollingWorker;
  private nextRefreshAt = 0;
  private nextReclaimAt = 0;
  private readonly log: Logger;
  /** The store whose outage failed the last rounds; its end is told when a round works again. */
  private downStore: string | undefined;

  constructor(
    private readonly deps: CustomerEventsConsumerDeps,
    private readonly settings: CustomerEventsConsumerSettings,
  ) {
    this.log = deps.logger.child({ component: 'customer-events', consumer: settings.consumerName });
    this.loop = new PollingWorker({
      name: 'customer events consumer',
      round: () => this.round(),
      idleMs: settings.blockMs,
      errorBackoff: {
        firstMs: settings.retryDelayMs,
        maxMs: Math.max(settings.retryDelayMs, DEFAULT_MAX_ERROR_BACKOFF_MS),
      },
      onError: (error, failures, retryInMs) => this.roundFailed(error, failures, retryInMs),
      onRecovered: () => {
        if (this.downStore !== undefined) this.deps.outages?.reachable(this.downStore);
        else this.log.info('customer events consumer recovered');
        this.downStore = undefined;
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Ends the loop after the round in flight (its committed entries are acked) and closes the connection. */
  async stop(): Promise<void> {
    await this.loop.stop();
    const { redis } = this.deps;
    if (redis.status === 'end') return;
    // quit() resolves on the server's OK; the socket closes a moment later.
    const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
    await redis.quit().catch(() => redis.disconnect());
    await ended;
  }

  private roundFailed(error: unknown, failures: number, retryInMs: number): void {
    // An ack may have failed after its commit: read each stream's own pending entries first next time.
    const retryAt = this.deps.clock() + retryInMs;
    for (const stream of this.streams.values()) stream.retryAt ??= retryAt;
    if (isNoGroupError(error)) {
      // The stream key was deleted (and with it the group); make the groups again before reading.
      for (const stream of this.streams.values()) stream.groupReady = false;
    }
    if (this.deps.outages?.refused(error, 'round') === true)
      this.downStore = this.deps.outages.storeOf(error);
    else if (failures === 1) this.log.warn({ err: error }, 'customer events round failed; retrying');
  }

  /** Idle when nothing could be read without blocking (a blocking read has waited already). */
  private async round(): Promise<RoundOutcome> {
    const now = this.deps.clock();
    if (now >= this.nextRefreshAt) {
      await this.refreshPartners();
      this.nextRefreshAt = now + this.settings.partnerRefreshMs;
    }
    await this.ensureGroups();
    if (now >= this.nextReclaimAt) {
      await this.reclaim();
      this.nextReclaimAt = now + this.settings.reclaimIntervalMs;
    }
    await this.retryOwnPending(now);
    return this.readNew();
  }

  private async refreshPartners(): Promise<void> {
    const partners = await this.deps.partners.list();
    const seen = new Set<string>();
    for (const partner of partners) {
      // Management refuses such names, so this only guards against rows written by hand.
      if (!isKeySafeAdvId(partner.name)) continue;
      const key = partnerKeys(this.settings.keyPrefix, partner.name).customerEvents;
      seen.add(key);
      const known = this.streams.get(key);
      if (known === undefined) {
        this.streams.set(key, { partner, key, groupReady: false, retryAt: null });
      } else {
        known.partner = partner;
      }
    }
    for (const key of [...this.streams.keys()]) if (!seen.has(key)) this.streams.delete(key);
  }

  private async ensureGroups(): Promise<void> {
    for (const stream of this.streams.values()) {
      if (stream.groupReady) continue;
      try {
        // From 0, not $: entries appended before the group existed are customers too.
        await this.deps.redis.xgroup('CREATE', stream.key, CUSTOMER_EVENTS_GROUP, '0', 'MKSTREAM');
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
      }
      stream.groupReady = true;
    }
  }

  private async readNew(): Promise<RoundOutcome> {
    const ready = [...this.streams.values()].filter((stream) => stream.retryAt === null);
    if (ready.length === 0) return 'idle';
    if (!this.deps.redis.isCluster) {
      const reply = await this.readGroup(ready, '>', true);
      await this.applyReadReply(ready, reply);
      return 'again';
    }
    const replies = await Promise.all(ready.map((stream) => this.readGroup([stream], '>', false)));
    let received = 0;
    for (const [index, reply] of replies.entries())
      received += await this.applyReadReply([ready[index]!], reply);
    return received === 0 ? 'idle' : 'again';
  }

  /** Reads this consumer's own pending entries of streams whose retry time has come. */
  private async retryOwnPending(now: number): Promise<void> {
    for (const stream of this.streams.values()) {
      if (stream.retryAt === null || stream.retryAt > now) continue;
      const reply = await this.readGroup([stream], '0', false);
      const entries = parseReadGroupReply(reply).get(stream.key) ?? [];
      const ok = await this.applyEntries(stream, entries);
      // A short batch that all applied means nothing of ours is pending any more.
      if (ok && entries.length < this.settings.batchSize) stream.retryAt = null;
    }
  }

  private readGroup(streams: PartnerStream[], from: '>' | '0', block: boolean): Promise<unknown> {
    const { consumerName, batchSize, blockMs } = this.settings;
    const keys = streams.map((stream) => stream.key);
    const ids = streams.map(() => from);
    const args: Array<string | number> = ['GROUP', CUSTOMER_EVENTS_GROUP, consumerName, 'COUNT', batchSize];
    if (block) args.push('BLOCK', blockMs);
    args.push('STREAMS', ...keys, ...ids);
    return this.deps.redis.call('XREADGROUP', ...args);
  }

  /** Returns how many entries arrived. */
  private async applyReadReply(streams: PartnerStream[], reply: unknown): Promise<number> {
    const byKey = parseReadGroupReply(reply);
    let count = 0;
    for (const stream of streams) {
      const entries = byKey.get(stream.key) ?? [];
      count += entries.length;
      await this.applyEntries(stream, entries);
    }
    return count;
  }

  /** Takes over entries other consumers left pending too long, and forgets consumers long gone. */
  private async reclaim(): Promise<void> {
    const { consumerName, reclaimIdleMs, batchSize } = this.settings;
    for (const stream of this.streams.values()) {
      if (stream.retryAt !== null) continue;
      let cursor = '0-0';
      for (let batch = 0; batch < MAX_RECLAIM_BATCHES; batch++) {
        const reply = await this.deps.redis.xautoclaim(
          stream.key, CUSTOMER_EVENTS_GROUP, consumerName, reclaimIdleMs, cursor, 'COUNT', batchSize,
        ); // prettier-ignore
        const claimed = parseAutoClaimReply(reply);
        if (claimed.entries.length > 0) {
          this.log.info(
            { stream: stream.key, entries: claimed.entries.length },
            'reclaimed pending customer events',
          );
        }
        if (!(await this.applyEntries(stream, claimed.entries))) break;
        cursor = claimed.cursor;
        if (cursor === '0-0') break;
      }
      await this.forgetIdleConsumers(stream);
    }
  }

  private async forgetIdleConsumers(stream: PartnerStream): Promise<void> {
    const consumers = (await this.deps.redis.call(
      'XINFO',
      'CONSUMERS',
      stream.key,
      CUSTOMER_EVENTS_GROUP,
    )) as unknown;
    if (!Array.isArray(consumers)) return;
    for (const raw of consumers) {
      if (!Array.isArray(raw)) continue;
      const info = new Map<string, unknown>();
      for (let i = 0; i + 1 < raw.length; i += 2) info.set(String(raw[i]), raw[i + 1]);
      const name = info.get('name');
      if (typeof name !== 'string' || name === this.settings.consumerName) continue;
      if (info.get('pending') === 0 && Number(info.get('idle')) > FORGOTTEN_CONSUMER_IDLE_MS) {
        await this.deps.redis.xgroup('DELCONSUMER', stream.key, CUSTOMER_EVENTS_GROUP, name);
      }
    }
  }

  /**
   * Applies the entries of one read as one batch (one transaction, one upsert statement, so a burst
   * costs one write) and acks them after the commit. When the database fails, none is acked: they
   * stay pending and are retried, in order. False when it failed.
   */
  private async applyEntries(stream: PartnerStream, entries: StreamEntry[]): Promise<boolean> {
    // Trimmed from the stream while pending (MAXLEN): nothing left to apply, only to ack.
    const trimmed = entries.filter((entry) => entry.fields === null).map((entry) => entry.id);
    const present = entries.filter(
      (entry): entry is { id: string; fields: string[] } => entry.fields !== null,
    );
    const done = [...trimmed];
    let ok = true;
    if (present.length > 0) {
      try {
        const batch = present.map((entry) => entry.fields);
        const results = await inConsumerSpan(stream.key, batch, () =>
          this.deps.events.applyBatch(stream.partner, batch),
        );
        for (const [index, entry] of present.entries()) this.logResult(stream, entry.id, results[index]!);
        done.push(...present.map((entry) => entry.id));
      } catch (error) {
        this.log.warn(
          { err: error, stream: stream.key, entries: present.length, firstEntryId: present[0]!.id },
          'customer events not applied; they stay pending and are retried',
        );
        stream.retryAt = this.deps.clock() + this.settings.retryDelayMs;
        ok = false;
      }
    }
    if (done.length > 0) await this.deps.redis.xack(stream.key, CUSTOMER_EVENTS_GROUP, ...done);
    return ok;
  }

  private logResult(stream: PartnerStream, entryId: string, result: CustomerEventResult): void {
    const context = { stream: stream.key, entryId, partner: stream.partner.name };
    if (result.kind === 'malformed') {
      this.log.warn({ ...context, problem: result.problem }, 'malformed customer event skipped');
      return;
    }
    if (result.rejected.length > 0) {
      this.log.warn(
        { ...context, custnr: result.custnr, rejected: result.rejected },
        'customer event values not stored',
      );
    }
    this.log.debug({ ...context, custnr: result.custnr, outcome: result.outcome }, 'customer event applied');
  }
}

function isNoGroupError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOGROUP');
}
