import type { EntityManager } from 'typeorm';
import type { Cdr, CdrOutcome } from './cdr';
import { recordCdrChange } from './cdr-changes';
import { CDR_COLUMNS, changeOf, recordStart, toCdr } from './cdrs.store';

/** Which record an outcome is posted to: by its id or by the switch's call id. */
export type CdrReference = { cdrId: string } | { callId: string };

/** The outcome figures of one customer's calls in a period, per status and currency. */
export interface OutcomeFigureRow {
  status: string;
  /** Null for outcomes without a value. */
  currency: string | null;
  calls: number;
  /** The sum of the values, as numeric text; null without a currency. */
  value: string | null;
}

/** The outcome columns of "cdrs" (docs/conversions.md, Outcomes); the cdrs feature owns the table. */
export interface CdrOutcomesStore {
  /** The partner's record, locked until the transaction ends so two posts of one outcome take turns. */
  lockRecord(partnerId: string, reference: CdrReference): Promise<Cdr | null>;
  findRecord(partnerId: string, reference: CdrReference): Promise<Cdr | null>;
  setOutcome(cdr: Pick<Cdr, 'id' | 'start'>, outcome: CdrOutcome): Promise<Cdr>;
  outcomeFigures(query: {
    partnerId: string;
    customerId: string;
    from: Date;
    to: Date;
  }): Promise<OutcomeFigureRow[]>;
}

type Row = Record<string, unknown>;

export class TypeormCdrOutcomesStore implements CdrOutcomesStore {
  constructor(private readonly manager: EntityManager) {}

  lockRecord(partnerId: string, reference: CdrReference): Promise<Cdr | null> {
    return this.select(partnerId, reference, ' FOR UPDATE');
  }

  findRecord(partnerId: string, reference: CdrReference): Promise<Cdr | null> {
    return this.select(partnerId, reference, '');
  }

  async setOutcome(cdr: Pick<Cdr, 'id' | 'start'>, outcome: CdrOutcome): Promise<Cdr> {
    const rows: Row[] = await this.manager.query(
      `UPDATE "cdrs" SET "outcome_status" = $3, "outcome_value" = $4::numeric, "outcome_currency" = $5,
              "outcome_note" = $6, "outcome_at" = $7
        WHERE "id" = $1 AND "start" = $2
       RETURNING ${CDR_COLUMNS}`,
      [cdr.id, cdr.start, outcome.status, outcome.value, outcome.currency, outcome.note, outcome.at],
    );
    const [updated] = updatedRows(rows);
    if (updated === undefined) throw new Error(`call record ${cdr.id} vanished while its outcome was set`);
    const stored = toCdr(updated);
    await recordCdrChange(this.manager, [changeOf(stored, 'outcome')]);
    return stored;
  }

  async outcomeFigures(query: {
    partnerId: string;
    customerId: string;
    from: Date;
    to: Date;
  }): Promise<OutcomeFigureRow[]> {
    const rows: Row[] = await this.manager.query(
      `SELECT "outcome_status" AS "status", "outcome_currency" AS "currency", count(*)::int AS "calls",
              sum("outcome_value")::text AS "value"
         FROM "cdrs"
        WHERE "partner_id" = $1 AND "customer_id" = $2 AND "start" >= $3 AND "start" < $4
          AND "outcome_status" IS NOT NULL
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [query.partnerId, query.customerId, query.from, query.to],
    );
    return rows.map((row) => ({
      status: row.status as string,
      currency: (row.currency as string | null) ?? null,
      calls: row.calls as number,
      value: (row.value as string | null) ?? null,
    }));
  }

  private async select(partnerId: string, reference: CdrReference, lock: string): Promise<Cdr | null> {
    // Through "cdr_call_ids", which names the record's partition: without its start, every
    // partition's primary key would be planned and probed.
    if ('callId' in reference) {
      const rows: Row[] = await this.manager.query(
        `SELECT ${CDR_COLUMNS} FROM "cdrs" WHERE ("id", "start") = (
           SELECT "cdr_id", "start" FROM "cdr_call_ids" WHERE "partner_id" = $1 AND "call_id" = $2
         )${lock}`,
        [partnerId, reference.callId],
      );
      return rows[0] === undefined ? null : toCdr(rows[0]);
    }
    const start = await recordStart(this.manager, partnerId, reference.cdrId);
    if (start === null) return null;
    const rows: Row[] = await this.manager.query(
      `SELECT ${CDR_COLUMNS} FROM "cdrs" WHERE "id" = $2 AND "partner_id" = $1 AND "start" = $3${lock}`,
      [partnerId, reference.cdrId, start],
    );
    return rows[0] === undefined ? null : toCdr(rows[0]);
  }
}

/** TypeORM answers an UPDATE … RETURNING as [rows, count]. */
function updatedRows(result: unknown): Row[] {
  return Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as Row[]) : (result as Row[]);
}
