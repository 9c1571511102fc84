import type { EntityManager } from 'typeorm';

/**
 * The pricing of campaign `campaign` joined with its model `model` (table aliases), as toPricing reads
 * it; exported for the joins that read a source's campaign with it (sources/cdr-sources.reader.ts,
 * composition/dialled-numbers.reader.ts).
 */
export function pricingColumns(campaign: string, model: string): string {
  return `${campaign}."state", ${campaign}."pricing_model_id",
    ${model}."unique_caller_time"::text AS "unique_caller_time", ${model}."conditions"`;
}

/** A campaign with its pricing model, as stored (conditions in the wire form). */
export interface CdrCampaignPricing {
  campaignId: string;
  state: string;
  pricingModelId: string;
  uniqueCallerSeconds: number;
  conditions: unknown;
}

const PRICING_COLUMNS = pricingColumns('c', 'm');

type Row = Record<string, unknown>;

/**
 * A campaign with the pricing model that prices its calls, for a record whose batch lookup did not
 * bring it (docs/architecture.md, Table ownership); a batch's campaigns come with their sources.
 */
export class SqlCampaignPricingReader {
  constructor(private readonly manager: EntityManager) {}

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
