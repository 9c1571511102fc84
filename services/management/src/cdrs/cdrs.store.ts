import {
  canonicalAmount,
  readSpamReasons,
  renderSpamReasons,
  type AttributionKind,
  type OutcomeStatus,
} from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { deferredStatement } from '../db/statement-pipelining';
import { recordCdrChange, type CdrChange, type CdrChangeKind } from './cdr-changes';
import type { Cdr, CdrOutcome, CdrTranscriptSummary, NewCdr } from './cdr';
import type { CdrCampaignPricing } from '../campaigns/campaign-pricing.reader';
import type { AttributedSource, CdrSource } from '../sources/cdr-sources.reader';
import {
  callKey,
  type BatchNumbers,
  type CallClaim,
  type SentCall,
  type CallKey,
  type CdrLookupStore,
} from './cdr-batch-lookup';
import { locatePage, pageEnd, splitAtUtcDays, totalOf, type Span, type SplitCounts } from './cdr-page-plan';

/** What ingestion reads and writes inside a record's transaction (the batch's lookups come first). */
export interface CdrWriteStore {
  findByCallId(partnerId: string, callId: string): Promise<Cdr | null>;
  findSourceById(partnerId: string, sourceId: string): Promise<CdrSource | null>;
  findActiveSourceByPhonenr(partnerId: string, phonenr: string): Promise<CdrSource | null>;
  findCampaignPricing(partnerId: string, campaignId: string): Promise<CdrCampaignPricing | null>;
  /** Held until the transaction ends: one caller's calls into one campaign are priced one at a time. */
  lockCaller(campaignId: string, anum: string): Promise<void>;
  /**
   * The start of the caller's lead in the campaign nearest to `at`, before or after it: records
   * may arrive out of order, and a later-started lead stored first must still count. Only leads at
   * most `withinSeconds` from `at` are looked for (a farther one cannot matter to the unique-caller
   * rule), so only the months around `at` are searched.
   */
  nearestLeadAt(campaignId: string, anum: string, at: Date, withinSeconds: number): Promise<Date | null>;
  /** Null when the partner has a record with this call_id already (a concurrent twin won). */
  insert(cdr: NewCdr): Promise<Cdr | null>;
  /** lockCaller for many callers, in one order every transaction shares. */
  lockCallers(callers: ReadonlyArray<{ campaignId: string; anum: string }>): Promise<void>;
  /** nearestLeadAt for many calls, in one query; null where a call has none. */
  nearestLeadsAt(queries: readonly NearestLeadQuery[]): Promise<Array<Date | null>>;
  /** Many records, stored in the order given; a record a concurrent twin claimed first is left out. */
  insertMany(cdrs: readonly NewCdr[]): Promise<Cdr[]>;
  /** The record, locked until the transaction ends (a re-mark); null when not the partner's. */
  lockById(partnerId: string, id: string): Promise<Cdr | null>;
  /** A partner's re-mark (docs/spam.md, Re-marking a call); the record as stored. */
  updateSpam(
    partnerId: string,
    id: string,
    change: { spam: boolean; spamMarked: boolean; commission: string | null },
  ): Promise<Cdr>;
  /**
   * Holds a key-share lock on the customer until the transaction ends, so a concurrent DELETE of it
   * waits and then sees this record (docs/cdrs.md, "Deleting a customer"). False when it is gone.
   */
  lockCustomer(partnerId: string, customerId: string): Promise<boolean>;
}

export interface NearestLeadQuery {
  campaignId: string;
  anum: string;
  at: Date;
  withinSeconds: number;
}

export interface CdrPageQuery {
  partnerId: string;
  customerId: string;
  from: Date | null;
  to: Date | null;
  limit: number;
  offset: number;
}

export interface CdrReadStore {
  findCustomerId(partnerId: string, by: { customerId: string } | { custnr: string }): Promise<string | null>;
  page(query: CdrPageQuery): Promise<{ cdrs: Cdr[]; total: number }>;
}

export const CDR_COLUMNS = `
  "id"::text AS "id", "call_id", "partner_id"::text AS "partner_id", "customer_id"::text AS "customer_id",
  "custnr", "source_id"::text AS "source_id", "campaign_id"::text AS "campaign_id", "pricing_model_id",
  "start", "duration", "anum", "bnum", "cnum", "answered", "voicemail", "anum_ndc_name", "quarantined",
  "commission"::text AS "commission", "media", "class", "expire", "publisher_id", "cli_id", "order_id",
  "session_id", "tracking_id", "full_url", "full_referrer", "parameters", "attribution", "bound_seconds",
  "gclid", "gbraid", "wbraid", "ga_client_id", "ga_session_id", "outcome_status",
  "outcome_value"::text AS "outcome_value", "outcome_currency", "outcome_note", "outcome_at",
  "stir_verstat", "spam_score", "spam_reasons", "spam", "spam_marked",
  ("recording" IS NOT NULL) AS "has_recording", "timestamp"`;

type Row = Record<string, unknown>;

/**
 * Records with their transcript's summary (docs/call-intelligence.md, API): `records` selects
 * CDR_COLUMNS, and "transcripts" is left-joined on its primary key, so a page of 1,000 records stays
 * one statement (docs/benchmarks.md, Reads: statistics pages and the monthly report) — a join kept
 * across owners (docs/architecture.md).
 */
function withTranscripts(records: string): string {
  return `SELECT "r".*, "t"."status" AS "transcript_status",
            "t"."classification" AS "transcript_classification", "t"."keywords" AS "transcript_keywords"
       FROM (${records}) "r" LEFT JOIN "transcripts" "t" ON "t"."cdr_id" = "r"."id"::bigint`;
}

/** A column a new record writes: its name, the type its parameter is cast to, and its value. */
interface InsertedColumn {
  name: string;
  type: string;
  value(cdr: NewCdr): unknown;
}

/** Every column of a new record but "id" (drawn with the call id's claim), in one place for both inserts. */
const INSERTED: readonly InsertedColumn[] = [
  { name: 'call_id', type: 'text', value: (cdr) => cdr.callId },
  { name: 'partner_id', type: 'bigint', value: (cdr) => cdr.partnerId },
  { name: 'customer_id', type: 'bigint', value: (cdr) => cdr.customerId },
  { name: 'custnr', type: 'text', value: (cdr) => cdr.custnr },
  { name: 'source_id', type: 'bigint', value: (cdr) => cdr.sourceId },
  { name: 'campaign_id', type: 'bigint', value: (cdr) => cdr.campaignId },
  { name: 'pricing_model_id', type: 'uuid', value: (cdr) => cdr.pricingModelId },
  { name: 'start', type: 'timestamptz', value: (cdr) => cdr.start },
  { name: 'duration', type: 'integer', value: (cdr) => cdr.durationSeconds },
  { name: 'anum', type: 'text', value: (cdr) => cdr.anum },
  { name: 'bnum', type: 'text', value: (cdr) => cdr.bnum },
  { name: 'cnum', type: 'text', value: (cdr) => cdr.cnum },
  { name: 'answered', type: 'boolean', value: (cdr) => cdr.answered },
  { name: 'voicemail', type: 'boolean', value: (cdr) => cdr.voicemail },
  { name: 'anum_ndc_name', type: 'text', value: (cdr) => cdr.anumNdcName },
  { name: 'quarantined', type: 'boolean', value: (cdr) => cdr.quarantined },
  { name: 'commission', type: 'numeric', value: (cdr) => cdr.commission },
  { name: 'media', type: 'text', value: (cdr) => cdr.media },
  { name: 'class', type: 'text', value: (cdr) => cdr.sourceClass },
  { name: 'expire', type: 'timestamptz', value: (cdr) => cdr.expire },
  { name: 'publisher_id', type: 'text', value: (cdr) => cdr.publisherId },
  { name: 'cli_id', type: 'text', value: (cdr) => cdr.cliId },
  { name: 'order_id', type: 'text', value: (cdr) => cdr.orderId },
  { name: 'session_id', type: 'text', value: (cdr) => cdr.sessionId },
  { name: 'tracking_id', type: 'text', value: (cdr) => cdr.trackingId },
  { name: 'full_url', type: 'text', value: (cdr) => cdr.fullUrl },
  { name: 'full_referrer', type: 'text', value: (cdr) => cdr.fullReferrer },
  {
    name: 'parameters',
    type: 'jsonb',
    value: (cdr) => (cdr.parameters === null ? null : JSON.stringify(cdr.parameters)),
  },
  { name: 'recording', type: 'bytea', value: (cdr) => cdr.recording },
  { name: 'timestamp', type: 'timestamptz', value: (cdr) => cdr.timestamp },
  { name: 'attribution', type: 'text', value: (cdr) => cdr.attribution },
  { name: 'bound_seconds', type: 'integer', value: (cdr) => cdr.boundSeconds },
  { name: 'gclid', type: 'text', value: (cdr) => cdr.marketing.gclid },
  { name: 'gbraid', type: 'text', value: (cdr) => cdr.marketing.gbraid },
  { name: 'wbraid', type: 'text', value: (cdr) => cdr.marketing.wbraid },
  { name: 'ga_client_id', type: 'text', value: (cdr) => cdr.marketing.gaClientId },
  { name: 'ga_session_id', type: 'text', value: (cdr) => cdr.marketing.gaSessionId },
  { name: 'stir_verstat', type: 'text', value: (cdr) => cdr.stirVerstat },
  { name: 'spam_score', type: 'smallint', value: (cdr) => cdr.spamScore },
  { name: 'spam_reasons', type: 'text', value: (cdr) => renderSpamReasons(cdr.spamReasons) },
  { name: 'spam', type: 'boolean', value: (cdr) => cdr.spam },
  { name: 'spam_marked', type: 'boolean', value: (cdr) => cdr.spamMarked },
];

const INSERTED_NAMES = INSERTED.map((column) => `"${column.name}"`).join(', ');

/**
 * What a record needs of customers, numbers, sources and campaigns: ports their owners' readers
 * fill, on the same manager (composition/stores-on-manager.ts).
 */
export interface CdrReaders {
  customers: Pick<CdrWriteStore, 'lockCustomer'> &
    Pick<CdrLookupStore, 'findCustomerIds'> &
    Pick<CdrReadStore, 'findCustomerId'>;
  numbers: Pick<CdrLookupStore, 'findDialledNumbers'>;
  sources: Pick<CdrLookupStore, 'findSourcesByIds'> &
    Pick<CdrWriteStore, 'findSourceById' | 'findActiveSourceByPhonenr'>;
  campaigns: Pick<CdrWriteStore, 'findCampaignPricing'>;
}

/**
 * Writes and reads "cdrs", "cdr_call_ids" and "cdr_day_counts"; what a record needs of customers,
 * numbers, sources and campaigns it asks of their features' readers, on the same EntityManager (so
 * in the same transaction).
 */
export class TypeormCdrsStore implements CdrWriteStore, CdrLookupStore, CdrReadStore {
  private readonly customers: CdrReaders['customers'];
  private readonly numbers: CdrReaders['numbers'];
  private readonly sources: CdrReaders['sources'];
  private readonly campaigns: CdrReaders['campaigns'];

  constructor(
    private readonly manager: EntityManager,
    /** The other features' readers, on the same manager (composition/stores-on-manager.ts). */
    readers: CdrReaders,
  ) {
    this.customers = readers.customers;
    this.numbers = readers.numbers;
    this.sources = readers.sources;
    this.campaigns = readers.campaigns;
  }

  /** The customer lookups and lock are the customers feature's (docs/architecture.md, Table ownership). */
  lockCustomer(partnerId: string, customerId: string): Promise<boolean> {
    return this.customers.lockCustomer(partnerId, customerId);
  }

  findCustomerIds(
    wanted: ReadonlyArray<{ partnerId: string; custnr: string }>,
  ): Promise<Map<string, string>> {
    return this.customers.findCustomerIds(wanted);
  }

  findCustomerId(partnerId: string, by: { customerId: string } | { custnr: string }): Promise<string | null> {
    return this.customers.findCustomerId(partnerId, by);
  }

  findDialledNumbers(calls: readonly SentCall[]): Promise<BatchNumbers> {
    return this.numbers.findDialledNumbers(calls);
  }

  findSourcesByIds(
    wanted: ReadonlyArray<{ partnerId: string; sourceId: string }>,
  ): Promise<AttributedSource[]> {
    return this.sources.findSourcesByIds(wanted);
  }

  findSourceById(partnerId: string, sourceId: string): Promise<CdrSource | null> {
    return this.sources.findSourceById(partnerId, sourceId);
  }

  findActiveSourceByPhonenr(partnerId: string, phonenr: string): Promise<CdrSource | null> {
    return this.sources.findActiveSourceByPhonenr(partnerId, phonenr);
  }

  findCampaignPricing(partnerId: string, campaignId: string): Promise<CdrCampaignPricing | null> {
    return this.campaigns.findCampaignPricing(partnerId, campaignId);
  }

  async hasCallRecords(partnerId: string, customerId: string): Promise<boolean> {
    const rows: Row[] = await this.manager.query(
      `SELECT EXISTS (SELECT 1 FROM "cdrs" WHERE "partner_id" = $1 AND "customer_id" = $2) AS "found"`,
      [partnerId, customerId],
    );
    return rows[0]!.found as boolean;
  }

  async findByCallId(partnerId: string, callId: string): Promise<Cdr | null> {
    return (await this.findByCallIds([{ partnerId, callId }])).get(callKey(partnerId, callId)) ?? null;
  }

  /**
   * Through "cdr_call_ids", then the records found by ("id", "start") within the months they span,
   * so the planner prunes to those partitions; a batch of new calls (none claimed) reads no record.
   */
  async findByCallIds(calls: readonly CallKey[]): Promise<Map<string, Cdr>> {
    if (calls.length === 0) return new Map();
    const claims: Row[] = await this.manager.query(
      `SELECT k."cdr_id"::text AS "cdr_id", k."start"
         FROM unnest($1::bigint[], $2::varchar[]) AS w ("partner_id", "call_id")
         JOIN "cdr_call_ids" k ON k."partner_id" = w."partner_id" AND k."call_id" = w."call_id"`,
      [calls.map((call) => call.partnerId), calls.map((call) => call.callId)],
    );
    return this.findClaimedRecords(
      claims.map((claim) => ({ cdrId: claim.cdr_id as string, start: claim.start as Date })),
    );
  }

  /** The records of call ids found claimed (`cdr_call_ids`), by `callKey`; none asked, none read. */
  async findClaimedRecords(claims: readonly CallClaim[]): Promise<Map<string, Cdr>> {
    if (claims.length === 0) return new Map();
    const starts = claims.map((claim) => claim.start.getTime());
    const rows: Row[] = await this.manager.query(
      `SELECT ${CDR_COLUMNS} FROM "cdrs"
        WHERE ("id", "start") IN (SELECT * FROM unnest($1::bigint[], $2::timestamptz[]))
          AND "start" >= $3 AND "start" <= $4`,
      [
        claims.map((claim) => claim.cdrId),
        claims.map((claim) => claim.start),
        new Date(Math.min(...starts)),
        new Date(Math.max(...starts)),
      ],
    );
    const found = rows.map(toCdr);
    return new Map(found.map((cdr) => [callKey(cdr.partnerId, cdr.callId), cdr]));
  }

  /** One of the partner's records by id (webhook bodies are rendered from it). */
  /**
   * `start`, when the caller kept the record's (an outbox row: a webhook delivery, a conversion),
   * spares the read of the call id's claim: one statement instead of two.
   */
  async findById(partnerId: string, id: string, start: Date | null = null): Promise<Cdr | null> {
    return start === null ? this.byId(partnerId, id, '') : this.byIdAt(partnerId, id, start, '');
  }

  async lockById(partnerId: string, id: string): Promise<Cdr | null> {
    return this.byId(partnerId, id, ' FOR UPDATE');
  }

  /**
   * The record by its id: its `start` first, from the call id's claim, so the record is read from
   * the one monthly partition that holds it rather than from every partition's index. Two
   * statements on purpose: with the start from a subquery of the same statement, Postgres can
   * prune only while it runs, after it has opened every partition's index for the scan.
   */
  private async byId(partnerId: string, id: string, lock: '' | ' FOR UPDATE'): Promise<Cdr | null> {
    const start = await recordStart(this.manager, partnerId, id);
    return start === null ? null : this.byIdAt(partnerId, id, start, lock);
  }

  private async byIdAt(
    partnerId: string,
    id: string,
    start: Date,
    lock: '' | ' FOR UPDATE',
  ): Promise<Cdr | null> {
    const record = `SELECT ${CDR_COLUMNS} FROM "cdrs" WHERE "partner_id" = $1 AND "id" = $2 AND "start" = $3`;
    // A lock reads the record to change it, not to render it: no transcript needed.
    const rows: Row[] = await this.manager.query(lock === '' ? withTranscripts(record) : `${record}${lock}`, [
      partnerId,
      id,
      start,
    ]);
    return rows[0] === undefined ? null : toCdr(rows[0]);
  }

  async updateSpam(
    partnerId: string,
    id: string,
    change: { spam: boolean; spamMarked: boolean; commission: string | null },
  ): Promise<Cdr> {
    const rows: Row[] = await this.manager.query(
      `WITH "changed" AS (
         UPDATE "cdrs" SET "spam" = $3, "spam_marked" = $4, "commission" = $5::numeric
          WHERE "partner_id" = $1 AND "id" = $2
          RETURNING ${CDR_COLUMNS})
       ${withTranscripts('SELECT * FROM "changed"')}`,
      [partnerId, id, change.spam, change.spamMarked, change.commission],
    );
    if (rows[0] === undefined) throw new Error(`call record ${id} vanished while locked`);
    const updated = toCdr(rows[0]);
    await recordCdrChange(this.manager, [changeOf(updated, 'spam')]);
    return updated;
  }

  lockCaller(campaignId: string, anum: string): Promise<void> {
    return this.lockCallers([{ campaignId, anum }]);
  }

  async lockCallers(callers: ReadonlyArray<{ campaignId: string; anum: string }>): Promise<void> {
    if (callers.length === 0) return;
    // Sorted by the lock's key and taken in that order (the sorted subquery is not flattened); two
    // 32-bit halves of one hash, as the lock space is shared with other advisory-lock users.
    // Nothing waits for its answer: it goes to Postgres with the next statement, the probe for the
    // callers' leads, whose snapshot is taken after the locks are held (db/statement-pipelining.ts).
    await this.manager.query(
      deferredStatement(`SELECT count(pg_advisory_xact_lock(hashtext('cdr-lead'), "key")) AS "locked"
         FROM (SELECT DISTINCT hashtext("caller") AS "key" FROM unnest($1::text[]) AS "caller"
                ORDER BY 1 OFFSET 0) AS "sorted"`),
      [callers.map((caller) => callerLockKey(caller.campaignId, caller.anum))],
    );
  }

  async nearestLeadAt(
    campaignId: string,
    anum: string,
    at: Date,
    withinSeconds: number,
  ): Promise<Date | null> {
    const [nearest] = await this.nearestLeadsAt([{ campaignId, anum, at, withinSeconds }]);
    return nearest ?? null;
  }

  async nearestLeadsAt(queries: readonly NearestLeadQuery[]): Promise<Array<Date | null>> {
    if (queries.length === 0) return [];
    // The same two index probes as nearestLeadAt, once per query, in one round trip. The constant
    // outer bounds ($6, $7) let the planner prune to the months the batch spans: planning the
    // lateral probes over every monthly partition costs more than running them.
    const leads = (bound: string) =>
      `SELECT "start" FROM "cdrs" WHERE "campaign_id" = "q"."campaign_id" AND "anum" = "q"."anum"
          AND "commission" IS NOT NULL AND "start" >= "q"."from" AND "start" <= "q"."to"
          AND "start" >= $6 AND "start" <= $7 AND ${bound}`;
    const from = queries.map((query) => new Date(query.at.getTime() - query.withinSeconds * 1000));
    const to = queries.map((query) => new Date(query.at.getTime() + query.withinSeconds * 1000));
    const rows: Row[] = await this.manager.query(
      `SELECT "q"."ord", "lead"."start" FROM
         unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[])
           WITH ORDINALITY AS "q"("campaign_id", "anum", "at", "from", "to", "ord")
         CROSS JOIN LATERAL (
           SELECT "start" FROM (
             (${leads(`"start" <= "q"."at"`)} ORDER BY "start" DESC LIMIT 1)
             UNION ALL
             (${leads(`"start" > "q"."at"`)} ORDER BY "start" LIMIT 1)
           ) AS "nearest" ORDER BY abs(extract(epoch FROM "nearest"."start" - "q"."at")) LIMIT 1
         ) AS "lead"`,
      [
        queries.map((query) => query.campaignId),
        queries.map((query) => query.anum),
        queries.map((query) => query.at),
        from,
        to,
        new Date(Math.min(...from.map((date) => date.getTime()))),
        new Date(Math.max(...to.map((date) => date.getTime()))),
      ],
    );
    const found: Array<Date | null> = queries.map(() => null);
    for (const row of rows) found[Number(row.ord) - 1] = row.start as Date;
    return found;
  }

  /**
   * Claims the partner's call id in "cdr_call_ids" with the record's id drawn from the identity sequence, and
   * stores the record only when the claim was new: a concurrent twin's claim makes this one wait
   * and then return nothing, as a unique index on the record would.
   */
  async insert(cdr: NewCdr): Promise<Cdr | null> {
    const rows: Row[] = await this.manager.query(
      `WITH "claimed" AS (
         INSERT INTO "cdr_call_ids" ("partner_id", "call_id", "cdr_id", "start")
         VALUES ($2::bigint, $1, nextval(pg_get_serial_sequence('"cdrs"', 'id')), $8)
         ON CONFLICT ("partner_id", "call_id") DO NOTHING
         RETURNING "cdr_id"
       )
       INSERT INTO "cdrs" ("id", ${INSERTED_NAMES})
       OVERRIDING SYSTEM VALUE
       SELECT "cdr_id", ${INSERTED.map((column, i) => `$${i + 1}::${column.type}`).join(', ')}
         FROM "claimed"
       RETURNING ${CDR_COLUMNS}`,
      INSERTED.map((column) => column.value(cdr)),
    );
    if (rows[0] === undefined) return null;
    const stored = toCdr(rows[0]);
    await recordCdrChange(this.manager, [changeOf(stored, 'created')]);
    return stored;
  }

  /**
   * A batch's records in one statement, claimed and stored in the order given (docs/cdrs.md,
   * "Batches"): the rollup trigger locks its counter rows in that order. Returns the stored records in
   * that order; a record whose call id another transaction claimed first is left out, so fewer
   * records than given means a twin won.
   */
  async insertMany(cdrs: readonly NewCdr[]): Promise<Cdr[]> {
    if (cdrs.length === 0) return [];
    const rows: Row[] = await this.manager.query(
      `WITH "input" AS (
         SELECT * FROM unnest(${INSERTED.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ')})
           WITH ORDINALITY AS "given"(${INSERTED_NAMES}, "ord")
       ), "claimed" AS (
         INSERT INTO "cdr_call_ids" ("partner_id", "call_id", "cdr_id", "start")
         SELECT "partner_id", "call_id", nextval(pg_get_serial_sequence('"cdrs"', 'id')), "start"
           FROM "input" ORDER BY "ord"
         ON CONFLICT ("partner_id", "call_id") DO NOTHING
         RETURNING "partner_id", "call_id", "cdr_id"
       )
       INSERT INTO "cdrs" ("id", ${INSERTED_NAMES})
       OVERRIDING SYSTEM VALUE
       SELECT "claimed"."cdr_id", ${INSERTED.map((column) => `"input"."${column.name}"`).join(', ')}
         FROM "input" JOIN "claimed" USING ("partner_id", "call_id")
        ORDER BY "input"."ord"
       RETURNING ${CDR_COLUMNS}`,
      INSERTED.map((column) => cdrs.map((cdr) => column.value(cdr))),
    );
    const stored = new Map(
      rows.map((row) => [callKey(String(row.partner_id), String(row.call_id)), toCdr(row)]),
    );
    const inserted = cdrs.flatMap((cdr) => stored.get(callKey(cdr.partnerId, cdr.callId)) ?? []);
    await recordCdrChange(
      this.manager,
      inserted.map((cdr) => changeOf(cdr, 'created')),
    );
    return inserted;
  }

  /**
   * Total and page without walking the customer's records from the start (docs/benchmarks.md, Targets: a page
   * in ≤ 100 ms at 1,000,000 records): whole UTC days come from "cdr_day_counts", the partial days at the
   * ends are counted in the index, and the page's scan starts at the part that holds it.
   */
  async page(query: CdrPageQuery): Promise<{ cdrs: Cdr[]; total: number }> {
    const split = splitAtUtcDays(query.from, query.to);
    const [head, days, tail] = await Promise.all([
      split.head === null ? null : this.countSpan(query, split.head),
      split.days === null ? [] : this.dayCounts(query, split.days),
      split.tail === null ? null : this.countSpan(query, split.tail),
    ]);
    const counts: SplitCounts = {
      head: split.head === null ? null : { from: split.head.from, count: head! },
      days,
      tail: split.tail === null ? null : { from: split.tail.from, count: tail! },
    };
    const total = totalOf(counts);
    const start = locatePage(counts, query.offset);
    if (start === null) return { cdrs: [], total };
    const end = pageEnd(counts, query.offset + query.limit - 1);
    const until = end === null || (query.to !== null && query.to < end) ? query.to : end;
    const rows: Row[] = await this.manager.query(
      `${withTranscripts(`SELECT ${CDR_COLUMNS} FROM "cdrs"
          WHERE "partner_id" = $1 AND "customer_id" = $2 AND "start" >= $3
            AND ($4::timestamptz IS NULL OR "start" < $4)
          ORDER BY "start", "id" LIMIT $5 OFFSET $6`)}
        ORDER BY "r"."start", "r"."id"`,
      [query.partnerId, query.customerId, start.seek, until, query.limit, start.skip],
    );
    return { cdrs: rows.map(toCdr), total };
  }

  private async countSpan(query: CdrPageQuery, span: Span): Promise<number> {
    const rows: Row[] = await this.manager.query(
      `SELECT count(*)::int AS "count" FROM "cdrs"
        WHERE "partner_id" = $1 AND "customer_id" = $2 AND "start" >= $3 AND "start" < $4`,
      [query.partnerId, query.customerId, span.from, span.to],
    );
    return rows[0]!.count as number;
  }

  private async dayCounts(
    query: CdrPageQuery,
    days: { firstDay: Date | null; endDay: Date | null },
  ): Promise<{ day: Date; count: number }[]> {
    const rows: Row[] = await this.manager.query(
      `SELECT to_char("day", 'YYYY-MM-DD') AS "day", "count" FROM "cdr_day_counts"
        WHERE "partner_id" = $1 AND "customer_id" = $2 AND "count" > 0
          AND ($3::date IS NULL OR "day" >= $3::date) AND ($4::date IS NULL OR "day" < $4::date)
        ORDER BY "day"`,
      [query.partnerId, query.customerId, isoDay(days.firstDay), isoDay(days.endDay)],
    );
    return rows.map((row) => ({
      day: new Date(`${row.day as string}T00:00:00Z`),
      count: row.count as number,
    }));
  }
}

function toOutcome(row: Row): CdrOutcome | null {
  if (row.outcome_status === null || row.outcome_status === undefined) return null;
  const value = (row.outcome_value as string | null) ?? null;
  return {
    status: row.outcome_status as OutcomeStatus,
    value: value === null ? null : canonicalAmount(value),
    currency: (row.outcome_currency as string | null) ?? null,
    note: (row.outcome_note as string | null) ?? null,
    at: row.outcome_at as Date,
  };
}

/** The stored record as a Cdr, from a row selected with CDR_COLUMNS. */
export function toCdr(row: Row): Cdr {
  return {
    id: row.id as string,
    callId: row.call_id as string,
    partnerId: row.partner_id as string,
    customerId: (row.customer_id as string | null) ?? null,
    custnr: (row.custnr as string | null) ?? null,
    sourceId: (row.source_id as string | null) ?? null,
    campaignId: (row.campaign_id as string | null) ?? null,
    pricingModelId: (row.pricing_model_id as string | null) ?? null,
    start: row.start as Date,
    durationSeconds: row.duration as number,
    anum: row.anum as string,
    bnum: row.bnum as string,
    cnum: (row.cnum as string | null) ?? null,
    answered: row.answered as boolean,
    voicemail: row.voicemail as boolean,
    anumNdcName: (row.anum_ndc_name as string | null) ?? null,
    quarantined: row.quarantined as boolean,
    commission: (row.commission as string | null) ?? null,
    media: (row.media as string | null) ?? null,
    sourceClass: (row.class as string | null) ?? null,
    expire: (row.expire as Date | null) ?? null,
    publisherId: (row.publisher_id as string | null) ?? null,
    cliId: (row.cli_id as string | null) ?? null,
    orderId: (row.order_id as string | null) ?? null,
    sessionId: (row.session_id as string | null) ?? null,
    trackingId: (row.tracking_id as string | null) ?? null,
    fullUrl: (row.full_url as string | null) ?? null,
    fullReferrer: (row.full_referrer as string | null) ?? null,
    parameters: (row.parameters as Record<string, string> | null) ?? null,
    attribution: (row.attribution as AttributionKind | null) ?? null,
    boundSeconds: (row.bound_seconds as number | null) ?? null,
    marketing: {
      gclid: (row.gclid as string | null) ?? null,
      gbraid: (row.gbraid as string | null) ?? null,
      wbraid: (row.wbraid as string | null) ?? null,
      gaClientId: (row.ga_client_id as string | null) ?? null,
      gaSessionId: (row.ga_session_id as string | null) ?? null,
    },
    outcome: toOutcome(row),
    stirVerstat: (row.stir_verstat as string | null) ?? null,
    spamScore: (row.spam_score as number | null) ?? null,
    spamReasons: readSpamReasons((row.spam_reasons as string | null) ?? null),
    spam: (row.spam as boolean | null) ?? false,
    spamMarked: (row.spam_marked as boolean | null) ?? null,
    hasRecording: row.has_recording as boolean,
    timestamp: row.timestamp as Date,
    transcript: toTranscriptSummary(row),
  };
}

/** Null when the record has no transcript or the row was read without withTranscripts. */
function toTranscriptSummary(row: Row): CdrTranscriptSummary | null {
  if (row.transcript_status === null || row.transcript_status === undefined) return null;
  return {
    status: row.transcript_status as CdrTranscriptSummary['status'],
    classification: (row.transcript_classification as string | null) ?? null,
    keywords: (row.transcript_keywords as string[] | null) ?? [],
  };
}

/** A UTC midnight as the date "cdr_day_counts" keys it. */
function isoDay(midnight: Date | null): string | null {
  return midnight === null ? null : midnight.toISOString().slice(0, 10);
}

/** The change feed's note of a stored record (docs/cdrs.md, Change feed). */
export function changeOf(cdr: Pick<Cdr, 'partnerId' | 'id' | 'start'>, kind: CdrChangeKind): CdrChange {
  return { partnerId: cdr.partnerId, cdrId: cdr.id, start: cdr.start, kind };
}

/** The caller's lock key in a campaign; the same for one call priced alone or in a batch. */
function callerLockKey(campaignId: string, anum: string): string {
  return `${campaignId}:${anum}`;
}

/** When the partner's record with this id started (its partition), or null when there is none. */
export async function recordStart(
  manager: EntityManager,
  partnerId: string,
  id: string,
): Promise<Date | null> {
  // By the record's id alone, whose index is then the only one to use: with the partner in the
  // condition too, a planner without fresh statistics (a table just bulk-loaded) intersected it with
  // the primary key's partner prefix and read every one of the partner's entries.
  const rows: Row[] = await manager.query(
    `SELECT "start", "partner_id"::text AS "partner_id" FROM "cdr_call_ids" WHERE "cdr_id" = $1`,
    [id],
  );
  const row = rows.find((found) => found.partner_id === partnerId);
  return (row?.start as Date | undefined) ?? null;
}
