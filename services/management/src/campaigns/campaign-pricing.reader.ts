import type { EntityManager } from 'typeorm';
import type { CdrCampaignPricing } from '../cdrs/cdr';

/**
 * The pricing of campaign `campaign` joined with its model `model` (table aliases), as toPricing reads
 * it; exported for the one join that reads a source's campaign with it (sources/cdr-sources.reader.ts).
 */
export function pricingColumns(campaign: string, model: string): string {
  return `${campaign}."state", ${campaign}."pricing_model_id",
    ${model}."unique_caller_time"::text AS "unique_caller_time", ${model}."conditions"`;
}

const PRICING_COLUMNS = pricingColumns('c', 'm');

type Row = Record<string, unknown>;

/**
 * Campaigns with the pricing model that prices their calls, for ingestion. It joins
 * "pricing_models": one query per batch (docs/architecture.md, Table ownership).
 */
export class SqlCampaignPricingReader {
  constructor(private readonly manager: EntityManager) {}

  async findCampaignPricings(
    campaignIds: readonly string[],
  ): Promise<Map<string, { partnerId: string; pricing: CdrCampaignPricing }>> {
    if (campaignIds.length === 0) return new Map();
    const rows: Row[] = await this.manager.query(
      `SELECT c."id"::text AS "campaign_id", c."partner_id"::text AS "partner_id", ${PRICING_COLUMNS}
         FROM "campaigns" c JOIN "pricing_models" m ON m."id" = c."pricing_model_id"
        WHERE c."id" = ANY($1::bigint[])`,
      [campaignIds],
    );
    return new Map(
      rows.map((row) => [
        row.campaign_id as string,
        { partnerId: row.partner_id as string, pricing: toPricing(row.campaign_id as string, row) },
      ]),
    );
  }

  async findCampaignPricing(partnerId: string, campaignId: string): Promise<CdrCampaignPricing | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT ${PRICING_COLUMNS}
         FROM "campaigns" c JOIN "pricing_models" m ON m."id" = c."pricing_model_id"
        WHERE c."partner_id" = $1 AND c."id" = $2`,
      [partnerId, campaignId],
    );
    return rows[0] === undefined ? null : toPricing(campaignId, rows[0]);
  }
}

export function toPricing(campaignId: string, row: Row): CdrCampaignPricing {
  return {
    campaignId,
    state: row.state as string,
    pricingModelId: row.pricing_model_id as string,
    uniqueCallerSeconds: Number(row.unique_caller_time),
    conditions: row.conditions,
  };
}
