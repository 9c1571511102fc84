import type { CountryCode } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { pricingColumns, toPricing } from '../campaigns/campaign-pricing.reader';
import type { DialledNumber } from '../cdrs/cdr';
import { callKey, type BatchNumbers, type SentCall } from '../cdrs/cdr-batch-lookup';
import { integrationsFromJson, integrationsJsonOf } from '../integrations/integrations.store';
import { SOURCE_COLUMNS, toSource } from '../sources/cdr-sources.reader';

type Row = Record<string, unknown>;

/**
 * The dialled numbers of a CDR batch with their owners and their sources, for ingestion: one query
 * per batch (docs/architecture.md, Joins kept across owners). It joins "partners" for the owner's
 * name, time zone, country and spam threshold, and "sources" (with "customers" for the custnr a
 * record carries) for the sources the owner had on the number; the domain's chooseStaticSource
 * picks one of them per call. Each source's campaign comes with it, with the pricing model that
 * prices its calls, so a batch of static-number calls reads no campaign of its own; and each
 * number's partner's claims ("cdr_call_ids") of the calls' ids, so a batch of new calls learns that
 * none is stored in the same round trip; and each partner's integrations ("partner_integrations"),
 * so the records' conversions are queued without a read in their transaction.
 *
 * It spans six owners and answers the cdrs feature's port (CdrReaders.numbers), so it is a
 * composition adapter: each owner's columns come from the owner's own reader, and the numbers and
 * sources features import neither each other nor cdrs/ (docs/architecture.md, Floors).
 */
export class SqlDialledNumbersReader {
  constructor(private readonly manager: EntityManager) {}

  async findDialledNumbers(calls: readonly SentCall[]): Promise<BatchNumbers> {
    const found: BatchNumbers = {
      numbers: new Map(),
      sources: new Map(),
      pricings: new Map(),
      claims: new Map(),
      integrations: new Map(),
    };
    if (calls.length === 0) return found;
    // One row per number and source; a number without sources comes once, its source columns null.
    // Each row of a number carries the number's claimed call ids (the same arrays on each).
    const rows: Row[] = await this.manager.query(
      `WITH "sent" AS (
         SELECT DISTINCT * FROM unnest($1::varchar[], $2::varchar[]) AS w ("bnum", "call_id")
       ), "claimed" AS (
         SELECT t."e164", array_agg(k."call_id" ORDER BY k."call_id") AS "claimed_call_ids",
                array_agg(k."cdr_id"::text ORDER BY k."call_id") AS "claimed_cdr_ids",
                array_agg(k."start" ORDER BY k."call_id") AS "claimed_starts"
           FROM "sent" w
           JOIN "tracking_numbers" t ON t."e164" = w."bnum"
           JOIN "cdr_call_ids" k ON k."partner_id" = t."partner_id" AND k."call_id" = w."call_id"
          GROUP BY t."e164"
       ), "owners" AS (
         SELECT DISTINCT t."partner_id" FROM "tracking_numbers" t WHERE t."e164" IN (SELECT "bnum" FROM "sent")
       ), "owner_integrations" AS (
         SELECT o."partner_id", ${integrationsJsonOf('o."partner_id"')} AS "integrations" FROM "owners" o
       )
       SELECT t."e164", t."partner_id"::text AS "partner_id", p."name" AS "adv_id", p."time_zone", p."country",
              t."kind", t."held_until", p."spam_threshold" AS "partner_spam_threshold", ${SOURCE_COLUMNS},
              cp."partner_id"::text AS "campaign_partner_id", ${pricingColumns('cp', 'pm')},
              cl."claimed_call_ids", cl."claimed_cdr_ids", cl."claimed_starts", o."integrations"
         FROM "tracking_numbers" t
         JOIN "partners" p ON p."id" = t."partner_id"
         LEFT JOIN "claimed" cl ON cl."e164" = t."e164"
         JOIN "owner_integrations" o ON o."partner_id" = t."partner_id"
         LEFT JOIN ("sources" s JOIN "customers" c ON c."id" = s."customer_id")
                ON s."destnr" = t."e164" AND s."partner_id" = t."partner_id"
         LEFT JOIN ("campaigns" cp JOIN "pricing_models" pm ON pm."id" = cp."pricing_model_id")
                ON cp."id" = s."campaign_id"
        WHERE t."e164" IN (SELECT "bnum" FROM "sent")`,
      [calls.map((call) => call.bnum), calls.map((call) => call.callId)],
    );
    for (const row of rows) {
      const e164 = row.e164 as string;
      const partnerId = row.partner_id as string;
      if (!found.integrations.has(partnerId))
        found.integrations.set(partnerId, integrationsFromJson(row.integrations));
      if (!found.numbers.has(e164)) {
        const callIds = (row.claimed_call_ids as string[] | null) ?? [];
        callIds.forEach((callId, i) =>
          found.claims.set(callKey(partnerId, callId), {
            cdrId: (row.claimed_cdr_ids as string[])[i]!,
            start: (row.claimed_starts as Date[])[i]!,
          }),
        );
        found.numbers.set(e164, {
          partnerId,
          advId: row.adv_id as string,
          timeZone: row.time_zone as string,
          country: row.country as CountryCode,
          kind: row.kind as DialledNumber['kind'],
          heldUntil: (row.held_until as Date | null) ?? null,
          spamThreshold: row.partner_spam_threshold as number,
        });
      }
      if (row.id === null) continue;
      const source = toSource(row);
      const entry = found.sources.get(e164) ?? { partnerId, sources: [] };
      entry.sources.push(source);
      found.sources.set(e164, entry);
      // The campaign's own partner, as stored: the lookup answers a campaign only to that partner.
      if (source.campaignId !== null && row.campaign_partner_id !== null)
        found.pricings.set(source.campaignId, {
          partnerId: row.campaign_partner_id as string,
          pricing: toPricing(source.campaignId, row),
        });
    }
    return found;
  }
}
