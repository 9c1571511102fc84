import type { EntityManager } from 'typeorm';

type Row = Record<string, unknown>;

/** The key of findCustomerIds' answer: a custnr is unique within its partner. */
export function customerKey(partnerId: string, custnr: string): string {
  return `${partnerId} ${custnr}`;
}

/** What CDR ingestion and the CDR list read of the customers table; a batch lookup is one query. */
export class SqlCdrCustomersReader {
  constructor(private readonly manager: EntityManager) {}

  async lockCustomer(partnerId: string, customerId: string): Promise<boolean> {
    const rows: Row[] = await this.manager.query(
      `SELECT 1 FROM "customers" WHERE "partner_id" = $1 AND "id" = $2 FOR KEY SHARE`,
      [partnerId, customerId],
    );
    return rows.length > 0;
  }

  async findCustomerIds(
    wanted: ReadonlyArray<{ partnerId: string; custnr: string }>,
  ): Promise<Map<string, string>> {
    if (wanted.length === 0) return new Map();
    const rows: Row[] = await this.manager.query(
      `SELECT c."partner_id"::text AS "partner_id", c."custnr", c."id"::text AS "id"
         FROM "customers" c
         JOIN unnest($1::bigint[], $2::varchar[]) AS w("partner_id", "custnr")
           ON c."partner_id" = w."partner_id" AND c."custnr" = w."custnr"`,
      [wanted.map((entry) => entry.partnerId), wanted.map((entry) => entry.custnr)],
    );
    return new Map(
      rows.map((row) => [customerKey(row.partner_id as string, row.custnr as string), row.id as string]),
    );
  }

  async findCustomerId(
    partnerId: string,
    by: { customerId: string } | { custnr: string },
  ): Promise<string | null> {
    const [column, value] = 'customerId' in by ? ['id', by.customerId] : ['custnr', by.custnr];
    const rows: Row[] = await this.manager.query(
      `SELECT "id"::text AS "id" FROM "customers" WHERE "partner_id" = $1 AND "${column}" = $2`,
      [partnerId, value],
    );
    return (rows[0]?.id as string | undefined) ?? null;
  }
}
