import type { CountryCode } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { pricingColumns, toPricing } from '../campaigns/campaign-pricing.reader';
import type { DialledNumber } from '../cdrs/cdr';
import type { BatchNumbers } from '../cdrs/cdr-batch-lookup';
import { SOURCE_COLUMNS, toSource } from '../sources/cdr-sources.reader';

type Row = Record<string, unknown>;

/**
 * The dialled numbers of a CDR batch with their owners and their sources, for ingestion: one query
 * per batch (docs/architecture.md, Joins kept across owners). It joins "partners" for the owner's
 * name, time zone, country and spam threshold, and "sources" (with "customers" for the custnr a
 * record carries) for the sources the owner had on the number; the domain's chooseStaticSource
 * picks one of them per call. Each source's campaign comes with it, with the pricing model that
 * prices its calls, so a batch of static-number calls reads no campaign of its own.
 */
export class SqlDialledNumbersReader {
  constructor(private readonly manager: EntityManager) {}

  async findDialledNumbers(e164s: readonly string[]): Promise<BatchNumbers> {
    const found: BatchNumbers = { numbers: new Map(), sources: new Map(), pricings: new Map() };
    if (e164s.length === 0) return found;
    // One row per number and source; a number without sources comes once, its source columns null.
    const rows: Row[] = await this.manager.query(
      `SELECT t."e164", t."partner_id"::text AS "partner_id", p."name" AS "adv_id", p."time_zone", p."country",
              t."kind", t."held_until", p."spam_threshold" AS "partner_spam_threshold", ${SOURCE_COLUMNS},
              cp."partner_id"::text AS "campaign_partner_id", ${pricingColumns('cp', 'pm')}
         FROM "tracking_numbers" t
         JOIN "partners" p ON p."id" = t."partner_id"
         LEFT JOIN ("sources" s JOIN "customers" c ON c."id" = s."customer_id")
                ON s."destnr" = t."e164" AND s."partner_id" = t."partner_id"
         LEFT JOIN ("campaigns" cp JOIN "pricing_models" pm ON pm."id" = cp."pricing_model_id")
                ON cp."id" = s."campaign_id"
        WHERE t."e164" = ANY($1::varchar[])`,
      [e164s],
    );
    for (const row of rows) {
      const e164 = row.e164 as string;
      const partnerId = row.partner_id as string;
      if (!found.numbers.has(e164))
        found.numbers.set(e164, {
          partnerId,
          advId: row.adv_id as string,
          timeZone: row.time_zone as string,
          country: row.country as CountryCode,
          kind: row.kind as DialledNumber['kind'],
          heldUntil: (row.held_until as Date | null) ?? null,
          spamThreshold: row.partner_spam_threshold as number,
        });
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
