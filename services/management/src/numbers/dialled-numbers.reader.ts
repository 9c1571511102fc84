import type { CountryCode } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import type { DialledNumber } from '../cdrs/cdr';

type Row = Record<string, unknown>;

/**
 * The dialled numbers of a CDR batch with their owners, for ingestion. It joins "partners" for the
 * owner's name, time zone and country: one query per batch (docs/architecture.md, Table ownership).
 */
export class SqlDialledNumbersReader {
  constructor(private readonly manager: EntityManager) {}

  async findDialledNumbers(e164s: readonly string[]): Promise<Map<string, DialledNumber>> {
    if (e164s.length === 0) return new Map();
    const rows: Row[] = await this.manager.query(
      `SELECT t."e164", t."partner_id"::text AS "partner_id", p."name", p."time_zone", p."country", t."kind", t."held_until",
              p."spam_threshold"
         FROM "tracking_numbers" t JOIN "partners" p ON p."id" = t."partner_id"
        WHERE t."e164" = ANY($1::varchar[])`,
      [e164s],
    );
    return new Map(
      rows.map((row) => [
        row.e164 as string,
        {
          partnerId: row.partner_id as string,
          advId: row.name as string,
          timeZone: row.time_zone as string,
          country: row.country as CountryCode,
          kind: row.kind as DialledNumber['kind'],
          heldUntil: (row.held_until as Date | null) ?? null,
          spamThreshold: row.spam_threshold as number,
        },
      ]),
    );
  }
}
