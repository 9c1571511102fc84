import type { EntityManager } from 'typeorm';
import { pricingColumns, toPricing, type CdrCampaignPricing } from '../campaigns/campaign-pricing.reader';

/** A source as a call record needs it, from "sources" s joined with "customers" c. */
export const SOURCE_COLUMNS = `
  s."id"::text AS "id", s."customer_id"::text AS "customer_id", c."custnr", s."name",
  s."campaign_id"::text AS "campaign_id", s."media", s."class", s."expire", s."publisher_id", s."status",
  s."closed_at", s."email", s."smsnumber", s."notify_on_missed_call", s."notify_on_new_voicemail",
  s."spam_threshold"`;

/** The source a call is attributed to, with what the record copies from it. */
export interface CdrSource {
  id: string;
  customerId: string;
  custnr: string;
  name: string;
  campaignId: string | null;
  media: string | null;
  sourceClass: string;
  expire: Date | null;
  publisherId: string | null;
  status: 'active' | 'closed';
  closedAt: Date | null;
  email: string | null;
  smsnumber: string | null;
  notifyOnMissedCall: boolean;
  notifyOnNewVoicemail: boolean;
  /** The source's own spam threshold (docs/spam.md, Per source); absent or null: the partner's. */
  spamThreshold?: number | null;
}

type Row = Record<string, unknown>;

/** A pool call's source, with its campaign's owner and pricing when it has a campaign. */
export interface AttributedSource {
  partnerId: string;
  source: CdrSource;
  campaign: { partnerId: string; pricing: CdrCampaignPricing } | null;
}

/**
 * The sources a CDR may belong to, for ingestion, joined with "customers" for the custnr the record
 * carries (docs/architecture.md, Table ownership). A static number's sources come with the number
 * (composition/dialled-numbers.reader.ts).
 */
export class SqlCdrSourcesReader {
  constructor(private readonly manager: EntityManager) {}

  /**
   * The sources named that are their partner's (a batch's pool calls' attributed sources), each with
   * its campaign's pricing (null without a campaign), one query: the campaign is read with the source
   * rather than in the record's transaction (docs/architecture.md, Joins kept across owners).
   */
  async findSourcesByIds(
    wanted: ReadonlyArray<{ partnerId: string; sourceId: string }>,
  ): Promise<AttributedSource[]> {
    const valid = wanted.filter(({ sourceId }) => /^[1-9]\d{0,17}$/.test(sourceId));
    if (valid.length === 0) return [];
    const rows: Row[] = await this.manager.query(
      `SELECT s."partner_id"::text AS "partner_id", ${SOURCE_COLUMNS},
              cp."partner_id"::text AS "campaign_partner_id", ${pricingColumns('cp', 'pm')}
         FROM unnest($1::bigint[], $2::bigint[]) AS w ("partner_id", "id")
         JOIN "sources" s ON s."partner_id" = w."partner_id" AND s."id" = w."id"
         JOIN "customers" c ON c."id" = s."customer_id"
         LEFT JOIN ("campaigns" cp JOIN "pricing_models" pm ON pm."id" = cp."pricing_model_id")
           ON cp."id" = s."campaign_id"`,
      [valid.map((w) => w.partnerId), valid.map((w) => w.sourceId)],
    );
    return rows.map((row) => {
      const source = toSource(row);
      const pricing =
        source.campaignId === null || row.campaign_partner_id === null
          ? null
          : { partnerId: row.campaign_partner_id as string, pricing: toPricing(source.campaignId, row) };
      return { partnerId: row.partner_id as string, source, campaign: pricing };
    });
  }

  findSourceById(partnerId: string, sourceId: string): Promise<CdrSource | null> {
    if (!/^[1-9]\d{0,17}$/.test(sourceId)) return Promise.resolve(null);
    return this.oneSource(`s."partner_id" = $1 AND s."id" = $2`, [partnerId, sourceId]);
  }

  findActiveSourceByPhonenr(partnerId: string, phonenr: string): Promise<CdrSource | null> {
    return this.oneSource(
      `s."partner_id" = $1 AND s."phonenr" = $2 AND s."status" = 'active' ORDER BY s."id"`,
      [partnerId, phonenr],
    );
  }

  private async oneSource(condition: string, parameters: unknown[]): Promise<CdrSource | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT ${SOURCE_COLUMNS} FROM "sources" s JOIN "customers" c ON c."id" = s."customer_id"
        WHERE ${condition} LIMIT 1`,
      parameters,
    );
    return rows[0] === undefined ? null : toSource(rows[0]);
  }
}

export function toSource(row: Row): CdrSource {
  return {
    id: row.id as string,
    customerId: row.customer_id as string,
    custnr: row.custnr as string,
    name: row.name as string,
    campaignId: (row.campaign_id as string | null) ?? null,
    media: (row.media as string | null) ?? null,
    sourceClass: row.class as string,
    expire: (row.expire as Date | null) ?? null,
    publisherId: (row.publisher_id as string | null) ?? null,
    status: row.status as CdrSource['status'],
    closedAt: (row.closed_at as Date | null) ?? null,
    email: (row.email as string | null) ?? null,
    smsnumber: (row.smsnumber as string | null) ?? null,
    notifyOnMissedCall: row.notify_on_missed_call as boolean,
    notifyOnNewVoicemail: row.notify_on_new_voicemail as boolean,
    spamThreshold: (row.spam_threshold as number | null) ?? null,
  };
}
