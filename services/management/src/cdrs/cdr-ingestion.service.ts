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
import type { CdrBatchPath } from '../metrics/management-metrics';
import type { CdrWriteStores } from './cdr-write-stores';
import { callerStanding, noteStoredCall, type CallerHistory } from './cdr-spam';

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
 * batch in one transaction (cdr-batch-write.ts). When that cannot store every record as decided, it
 * rolls back and each record gets a transaction of its own (cdr-call-write.ts), so a bad one spoils
 * no other. Which source, which customer and what the call earns are decided by cdr-source.ts,
 * cdr-customer.ts and cdr-commission.ts; this service puts them in order.
 */
export class CdrIngestionService implements CdrIngestion {
  constructor(
    private readonly writes: UnitOfWork<CdrWriteStores>,
    private readonly lookups: CdrLookupStore,
    private readonly attributions: CallAttributionReader,
    private readonly webhookSubscriptions: WebhookSubscriptions,
    /** The caller's history and the partner's spam lists in Redis (docs/spam.md). */
    private readonly callers: CallerHistory,
    /** How each batch was stored, for `trackline_cdr_batches_total` (docs/operations.md). */
    private readonly batchStored: (path: CdrBatchPath) => void,
  ) {}

  async ingest(records: readonly CdrInput[], now: Date): Promise<IngestOutcome[]> {
    let lookup: CdrBatchLookup;
    try {
      lookup = await CdrBatchLookup.load(this.lookups, this.attributions, this.webhookSubscriptions, records);
    } catch (error) {
      if (isStoreUnreachable(error))
        throw new ServiceUnavailableError('Call records cannot be stored right now; retry later');
      throw error;
    }
    const outcomes: Array<IngestOutcome | undefined> = records.map(() => undefined);
    // A call id sent twice in one batch: the later copies are stored (found stored) after the first.
    const twins = new Set<number>();
    const seen = new Set<string>();
    const waiting: Array<{ index: number; call: CdrInput }> = [];
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
      const key = callKey(dialled.partnerId, call.callId);
      if (seen.has(key)) twins.add(index);
      else waiting.push({ index, call });
      seen.add(key);
    }
    const prepared = await this.prepare(lookup, [
      ...waiting,
      ...[...twins].map((index) => ({ index, call: records[index]! })),
    ]);
    const ready: Array<{ index: number; prepared: PreparedCall }> = [];
    for (const { index, result } of prepared) {
      if ('failure' in result) outcomes[index] = result.failure;
      else if (!twins.has(index)) ready.push({ index, prepared: result });
    }
    const stored = await this.storeAll(
      ready.map((call) => call.prepared),
      lookup,
      now,
    );
    stored.forEach((outcome, i) => (outcomes[ready[i]!.index] = outcome));
    for (const { index, result } of prepared)
      if (twins.has(index) && !('failure' in result))
        outcomes[index] = await this.storeOne(result, lookup, now);
    return outcomes as IngestOutcome[];
  }

  /**
   * The callers in their stored form and each caller's spam standing, before any transaction (Redis
   * is no part of it, and a retried record notes the same members). Every record's two commands are
   * sent at once, in the records' order, so Redis applies them as it would one record after another.
   */
  private async prepare(
    lookup: CdrBatchLookup,
    calls: ReadonlyArray<{ index: number; call: CdrInput }>,
  ): Promise<Array<{ index: number; result: PreparedCall | { failure: IngestOutcome } }>> {
    const pending = calls.map(({ index, call: sent }) => {
      const dialled = lookup.dialled(sent.bnum)!;
      const call: CdrInput = {
        ...sent,
        anum: canonicalAnum(sent.anum, dialled.country),
        cnum: sent.cnum === null ? null : canonicalAnum(sent.cnum, dialled.country),
      };
      const standing = callerStanding(this.callers, dialled, call);
      const noted = noteStoredCall(this.callers, dialled, call);
      return { index, call, dialled, settled: Promise.all([standing, noted]) };
    });
    const results = await Promise.allSettled(pending.map(({ settled }) => settled));
    return pending.map(({ index, call, dialled }, i) => {
      const result = results[i]!;
      if (result.status === 'rejected')
        return { index, result: { failure: classifyFailure(call.callId, result.reason) } };
      const standing: CallerStanding = result.value[0];
      return { index, result: { call, dialled, standing } };
    });
  }

  /** The batch in one transaction; record by record when that fails (docs/cdrs.md, "Batches"). */
  private async storeAll(
    prepared: readonly PreparedCall[],
    lookup: CdrBatchLookup,
    now: Date,
  ): Promise<IngestOutcome[]> {
    if (prepared.length === 0) return [];
    try {
      const stored = await this.writes.run((stores) => storeBatch(prepared, lookup, now, stores));
      this.batchStored('one_transaction');
      return stored.map((cdr) => ({ ok: true, cdr, created: true }));
    } catch {
      // Which record failed, and whether the others can be stored, only their own transactions tell.
      this.batchStored('per_record');
    }
    const outcomes: IngestOutcome[] = [];
    for (const call of prepared) outcomes.push(await this.storeOne(call, lookup, now));
    return outcomes;
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
