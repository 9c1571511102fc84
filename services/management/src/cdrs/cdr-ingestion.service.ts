import { canonicalAnum, type CallerStanding } from '@trackline/contracts';
import { NotFoundError, ServiceUnavailableError } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import { isStoreUnreachable } from '../http/error-handler';
import type { WebhookSubscriptions } from '../webhooks/webhooks.store';
import type { CallAttributionReader } from './call-attribution.reader';
import { callKey, CdrBatchLookup, type CdrLookupStore } from './cdr-batch-lookup';
import { storeBatch } from './cdr-batch-write';
import { storeCall, type PreparedCall } from './cdr-call-write';
import { classifyFailure, type IngestOutcome } from './cdr-ingest-outcome';
import type { CdrInput } from './cdr-input';
import type { DialledNumber } from './cdr';
import type { CdrBatchPath } from './cdr-ingest-metrics';
import type { CdrWriteStores } from './cdr-write-stores';
import { callerStanding, noteStoredCall, type CallerHistory } from './cdr-spam';

/** What a batch's lookups found, and each record's caller as Redis noted it (null: no such number). */
interface LookedUp {
  lookup: CdrBatchLookup;
  prepared: Array<PreparedCall | { failure: IngestOutcome } | null>;
}

/** Stores call records from every producer: the switch's route and the provider's calls. */
export interface CdrIngestion {
  /**
   * One outcome per record, in order. Rejects only when the batch's lookups cannot be made: with
   * ServiceUnavailableError (503, retry later) when a store is unreachable.
   */
  ingest(records: readonly CdrInput[], now: Date): Promise<IngestOutcome[]>;
}

/**
 * Call records (docs/cdrs.md, "Batches"): the batch's lookups in a few queries, then the whole
 * batch, in the transaction the lookups began (cdr-batch-write.ts). When that cannot store every record as decided, it
 * rolls back and each record gets a transaction of its own (cdr-call-write.ts), so a bad one spoils
 * no other. Which source, which customer and what the call earns are decided by cdr-source.ts,
 * cdr-customer.ts and cdr-commission.ts; this service puts them in order.
 */
export class CdrIngestionService implements CdrIngestion {
  constructor(
    /** Each batch's transaction, its lookups first (CdrWriteStores.lookups). */
    private readonly writes: UnitOfWork<CdrWriteStores>,
    private readonly attributions: CallAttributionReader,
    private readonly webhookSubscriptions: WebhookSubscriptions,
    /** The caller's history and the partner's spam lists in Redis (docs/spam.md). */
    private readonly callers: CallerHistory,
    /** How each batch was stored, for `trackline_cdr_batches_total` (docs/operations.md). */
    private readonly batchStored: (path: CdrBatchPath) => void,
  ) {}

  async ingest(records: readonly CdrInput[], now: Date): Promise<IngestOutcome[]> {
    const outcomes: Array<IngestOutcome | undefined> = records.map(() => undefined);
    // A call id sent twice in one batch: the later copies are stored (found stored) after the first.
    const twins: Array<{ index: number; prepared: PreparedCall }> = [];
    const ready: Array<{ index: number; prepared: PreparedCall }> = [];
    let lookup: CdrBatchLookup | undefined;
    let stored: IngestOutcome[];
    try {
      // The lookups are the transaction's first statements, on its connection: one transaction a
      // batch, not one for the lookups and one for the writes (docs/cdrs.md, How a batch is stored).
      stored = await this.writes.run(async (stores) => {
        const found = await this.look(stores.lookups, records);
        lookup = found.lookup;
        this.sortOut(records, found, outcomes, ready, twins);
        if (ready.length === 0) return [];
        const cdrs = await storeBatch(
          ready.map((call) => call.prepared),
          found.lookup,
          now,
          stores,
        );
        return cdrs.map((cdr): IngestOutcome => ({ ok: true, cdr, created: true }));
      });
      if (ready.length > 0) this.batchStored('one_transaction');
    } catch (error) {
      if (lookup === undefined) {
        if (isStoreUnreachable(error))
          throw new ServiceUnavailableError('Call records cannot be stored right now; retry later', {
            cause: error,
          });
        throw error;
      }
      // Which record failed, and whether the others can be stored, only their own transactions tell.
      this.batchStored('per_record');
      stored = [];
      for (const call of ready) stored.push(await this.storeOne(call.prepared, lookup, now));
    }
    stored.forEach((outcome, i) => (outcomes[ready[i]!.index] = outcome));
    // Twins are sorted out by the lookups: when there are any, the lookups were made.
    for (const twin of twins) outcomes[twin.index] = await this.storeOne(twin.prepared, lookup!, now);
    return outcomes as IngestOutcome[];
  }

  /**
   * The batch's lookups (cdr-batch-lookup.ts) and, alongside, every record's caller in Redis
   * (`prepare`). The callers' standing needs only the numbers: Redis answers while Postgres looks
   * up the rest.
   */
  private async look(lookups: CdrLookupStore, records: readonly CdrInput[]): Promise<LookedUp> {
    const numbers = await CdrBatchLookup.numbers(lookups, records);
    const [lookup, prepared] = await Promise.all([
      CdrBatchLookup.load(lookups, this.attributions, this.webhookSubscriptions, records, numbers),
      this.prepare(numbers.numbers, records),
    ]);
    return { lookup, prepared };
  }

  /**
   * Each record's outcome when the lookups decide it (an unknown number, a call stored before, a
   * caller Redis could not note); the rest go to `ready`, a call id's later copies to `twins`.
   */
  private sortOut(
    records: readonly CdrInput[],
    { lookup, prepared }: LookedUp,
    outcomes: Array<IngestOutcome | undefined>,
    ready: Array<{ index: number; prepared: PreparedCall }>,
    twins: Array<{ index: number; prepared: PreparedCall }>,
  ): void {
    const seen = new Set<string>();
    for (const [index, call] of records.entries()) {
      // The tracking number names the partner, and call ids are unique per partner (docs/cdrs.md).
      const dialled = lookup.dialled(call.bnum);
      if (dialled === null) {
        outcomes[index] = classifyFailure(call.callId, new NotFoundError(`tracking number ${call.bnum}`));
        continue;
      }
      const existing = lookup.existing(dialled.partnerId, call.callId);
      if (existing !== null) {
        outcomes[index] = { ok: true, cdr: existing, created: false };
        continue;
      }
      const result = prepared[index]!;
      if ('failure' in result) {
        outcomes[index] = result.failure;
        continue;
      }
      const key = callKey(dialled.partnerId, call.callId);
      if (seen.has(key)) twins.push({ index, prepared: result });
      else ready.push({ index, prepared: result });
      seen.add(key);
    }
  }

  /**
   * Per record, in order: the caller in its stored form and the caller's spam standing, beside the
   * lookups (Redis is no part of the transaction, and a record stored already, or retried, notes the
   * same members again). Every record's two commands are sent at once, in the records' order, so Redis
   * applies them as it would one record after another. Null for a record whose number is none.
   */
  private async prepare(
    numbers: ReadonlyMap<string, DialledNumber>,
    records: readonly CdrInput[],
  ): Promise<Array<PreparedCall | { failure: IngestOutcome } | null>> {
    const pending = records.map((sent) => {
      const dialled = numbers.get(sent.bnum);
      if (dialled === undefined) return null;
      const call: CdrInput = {
        ...sent,
        anum: canonicalAnum(sent.anum, dialled.country),
        cnum: sent.cnum === null ? null : canonicalAnum(sent.cnum, dialled.country),
      };
      const standing = callerStanding(this.callers, dialled, call);
      const noted = noteStoredCall(this.callers, dialled, call);
      return { call, dialled, settled: Promise.all([standing, noted]) };
    });
    const results = await Promise.allSettled(pending.map((entry) => entry?.settled));
    return pending.map((entry, i) => {
      if (entry === null) return null;
      const result = results[i]!;
      if (result.status === 'rejected') return { failure: classifyFailure(entry.call.callId, result.reason) };
      const standing: CallerStanding = (result.value as [CallerStanding, void])[0];
      return { call: entry.call, dialled: entry.dialled, standing };
    });
  }

  /** Whatever fails here fails this record only (docs/cdrs.md, "Batches"). */
  private async storeOne(prepared: PreparedCall, lookup: CdrBatchLookup, now: Date): Promise<IngestOutcome> {
    try {
      return await this.writes.run((stores) => storeCall(prepared, lookup, now, stores));
    } catch (error) {
      return classifyFailure(prepared.call.callId, error);
    }
  }
}
