import type { DataSource } from 'typeorm';
import type { BenchLine } from './bench-fixtures';

const CHUNK = 250_000;
const SPAN_SECONDS = 365 * 86_400;
export const BULK_FIRST_START = new Date('2025-01-01T00:00:00Z');

/**
 * `count` records for the customer of `lines` (its sources in turn), spread evenly over the year
 * from BULK_FIRST_START (or over `span`), written by INSERT … SELECT generate_series: no round trip per row. A third
 * earns a commission, a fifth is unanswered, callers repeat.
 */
export async function bulkLoadCdrs(
  dataSource: DataSource,
  partnerId: string,
  lines: readonly BenchLine[],
  count: number,
  tag: string,
  progress: (done: number) => void,
  span: { first: Date; seconds: number } = { first: BULK_FIRST_START, seconds: SPAN_SECONDS },
): Promise<void> {
  const step = span.seconds / count;
  for (let first = 1; first <= count; first += CHUNK) {
    const last = Math.min(count, first + CHUNK - 1);
    await dataSource.query(
      `INSERT INTO "cdrs" ("call_id", "partner_id", "customer_id", "custnr", "source_id", "campaign_id",
         "start", "duration", "anum", "bnum", "answered", "voicemail", "anum_ndc_name", "quarantined",
         "commission", "media", "class", "timestamp")
       SELECT $1 || g, $2, l."customer_id", l."custnr", l."source_id", l."campaign_id",
              $3::timestamptz + make_interval(secs => g * $4::float8), g % 290, '+479' || (1000000 + g % 400000),
              l."bnum", g % 5 <> 0, g % 50 = 0, 'Mobile', false,
              CASE WHEN g % 3 = 0 AND g % 5 <> 0 THEN 25.00 END, 'web', 'standard',
              $3::timestamptz + make_interval(secs => g * $4::float8 + 300)
         FROM generate_series($5::int, $6::int) AS g
         JOIN jsonb_to_recordset($7::jsonb) AS l("i" int, "customer_id" bigint, "custnr" text,
                "source_id" bigint, "campaign_id" bigint, "bnum" text)
           ON l."i" = g % $8`,
      [
        `bulk-${tag}-`,
        partnerId,
        span.first,
        step,
        first,
        last,
        JSON.stringify(
          lines.map((line, i) => ({
            i,
            customer_id: line.customerId,
            custnr: line.custnr,
            source_id: line.sourceId,
            campaign_id: line.campaignId,
            bnum: line.bnum,
          })),
        ),
        lines.length,
      ],
    );
    progress(last);
  }
}
