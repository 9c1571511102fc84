import { ValidationError } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { isDataException, isUniqueViolation } from '../db/pg-errors';
import { CustomerEntity } from './customer.entity';
import type { Customer, CustomerChanges, CustomerFilter, CustomerValues } from './customer';

export interface CustomersStore {
  /** The partner's customers, ordered by id. */
  list(partnerId: string, filter: CustomerFilter): Promise<Customer[]>;
  /** `lock` holds the row until the surrounding transaction ends (use inside a UnitOfWork). */
  findById(partnerId: string, id: string, options?: { lock?: boolean }): Promise<Customer | null>;
  /** Throws ValidationError naming `custnr` when the partner already uses it. */
  insert(partnerId: string, values: CustomerValues): Promise<Customer>;
  /** Keys left out keep their value; custom field values are merged. Null when no such customer. */
  update(partnerId: string, id: string, changes: CustomerChanges): Promise<Customer | null>;
  delete(partnerId: string, id: string): Promise<void>;
  /**
   * A visitor request named this custnr (docs/partner-api.md, Customers seen on partners' pages): create the
   * customer, or set the given name and e-mail where they differ. Keys left out keep the stored value; a new
   * customer sent without a name is named by its custnr (name is required). One statement, so two consumers
   * cannot both insert. Throws ValidationError for values the database can never store.
   */
  upsertSeen(partnerId: string, custnr: string, seen: CustomerSeen): Promise<CustomerSeenOutcome>;
  /**
   * The id of the partner's customer with this custnr, created as `upsertSeen` creates it when the
   * customer-seen stream has not delivered it yet (docs/cdrs.md, "Whose call it is"). An existing
   * customer is never changed: its values are the stream's to set. Racing `upsertSeen` or another
   * call of this, exactly one row is created.
   */
  /** The customer's id, and whether this call created it (for the `customer.created` webhook). */
  ensureSeen(partnerId: string, custnr: string, seen: CustomerSeen): Promise<EnsuredCustomer>;
  /**
   * upsertSeen for many custnrs of one partner in one statement (the customer-seen consumer's batch).
   * Sightings of one custnr are merged in order (a later value wins, a left-out one keeps the earlier).
   * Answers one row per distinct custnr, in order of first sighting, with the customer's id and
   * whether the statement created it (so a caller in the same transaction can act on new customers).
   */
  upsertSeenMany(partnerId: string, sightings: readonly CustomerSighting[]): Promise<CustomerSeenRow[]>;
}

export interface CustomerSighting {
  custnr: string;
  seen: CustomerSeen;
}

export interface CustomerSeenRow {
  custnr: string;
  /** The customer's id (bigint as text). */
  id: string;
  outcome: CustomerSeenOutcome;
}

export interface CustomerSeen {
  name?: string;
  email?: string;
}

export interface EnsuredCustomer {
  id: string;
  created: boolean;
}

export type CustomerSeenOutcome = 'created' | 'updated' | 'unchanged';

const CUSTNR_CONSTRAINT = 'UQ_customers_partner_custnr';

export class TypeormCustomersStore implements CustomersStore {
  constructor(private readonly manager: EntityManager) {}

  /**
   * False when the partner has no such customer; else share-locks the row until the transaction
   * ends, so a concurrent delete waits for the referring write.
   */
  async lockShared(partnerId: string, customerId: string): Promise<boolean> {
    const rows = (await this.manager.query(
      `SELECT id FROM customers WHERE partner_id = $1 AND id = $2 FOR SHARE`,
      [partnerId, customerId],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The partner's customers with receive_monthly_report = 1 and an e-mail address, by id. */
  async monthlyReportRecipients(partnerId: string): Promise<Array<{ customerId: string; email: string }>> {
    const rows = (await this.manager.query(
      `SELECT "id"::text AS "id", btrim("email") AS "email" FROM "customers"
        WHERE "partner_id" = $1 AND "receive_monthly_report" AND btrim(COALESCE("email", '')) <> ''
        ORDER BY "customers"."id"`, // the column, not the output's text id (9 before 10)
      [partnerId],
    )) as Array<{ id: string; email: string }>;
    return rows.map((row) => ({ customerId: row.id, email: row.email }));
  }

  async list(partnerId: string, filter: CustomerFilter): Promise<Customer[]> {
    const rows = await this.manager.getRepository(CustomerEntity).find({
      where: { partnerId, ...(filter.custnr === undefined ? {} : { custnr: filter.custnr }) },
      order: { id: 'ASC' },
    });
    return rows.map(toCustomer);
  }

  async findById(partnerId: string, id: string, options: { lock?: boolean } = {}): Promise<Customer | null> {
    const row = await this.manager.getRepository(CustomerEntity).findOne({
      where: { partnerId, id },
      ...(options.lock === true ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row === null ? null : toCustomer(row);
  }

  async insert(partnerId: string, values: CustomerValues): Promise<Customer> {
    const repository = this.manager.getRepository(CustomerEntity);
    const saved = await translateCustnrConflict(() =>
      repository.save(repository.create({ partnerId, ...values })),
    );
    // Re-read so generated columns (uuid, timestamps) come from the database.
    return toCustomer(await repository.findOneByOrFail({ id: saved.id }));
  }

  async update(partnerId: string, id: string, changes: CustomerChanges): Promise<Customer | null> {
    const { customFields, ...columns } = changes;
    const set: Record<string, unknown> = { ...columns };
    // Merged in SQL so two concurrent updates of different custom fields both survive.
    if (customFields !== undefined) set.customFields = () => 'custom_fields || CAST(:customFields AS jsonb)';
    const result = await translateCustnrConflict(() =>
      this.manager
        .createQueryBuilder()
        .update(CustomerEntity)
        .set(set)
        .setParameter('customFields', JSON.stringify(customFields ?? {}))
        .where('id = :id AND partner_id = :partnerId', { id, partnerId })
        .execute(),
    );
    if (result.affected === 0) return null;
    return this.findById(partnerId, id);
  }

  async delete(partnerId: string, id: string): Promise<void> {
    await this.manager.getRepository(CustomerEntity).delete({ partnerId, id });
  }

  async upsertSeen(partnerId: string, custnr: string, seen: CustomerSeen): Promise<CustomerSeenOutcome> {
    const [row] = await this.upsertSeenMany(partnerId, [{ custnr, seen }]);
    return row!.outcome;
  }

  async ensureSeen(partnerId: string, custnr: string, seen: CustomerSeen): Promise<EnsuredCustomer> {
    const values = [partnerId, custnr, seen.name ?? null, seen.email ?? null];
    // The same row upsertSeen would insert; ON CONFLICT waits for a concurrent insert to commit and
    // then yields to it, and the SELECT (a new snapshot) sees the row that won.
    const rows = (await translateDataException(() =>
      this.manager.query(
        `WITH inserted AS (
           INSERT INTO customers (partner_id, custnr, name, email)
           SELECT $1, $2::varchar, COALESCE($3::varchar, $2::varchar), $4::varchar
            WHERE NOT EXISTS (SELECT 1 FROM customers WHERE partner_id = $1 AND custnr = $2)
           ON CONFLICT (partner_id, custnr) DO NOTHING
           RETURNING id)
         SELECT id::text AS id FROM inserted`,
        values,
      ),
    )) as Array<{ id: string }>;
    if (rows[0] !== undefined) return { id: rows[0].id, created: true };
    const found = (await this.manager.query(
      `SELECT id::text AS id FROM customers WHERE partner_id = $1 AND custnr = $2`,
      [partnerId, custnr],
    )) as Array<{ id: string }>;
    if (found[0] === undefined) throw new Error(`customer ${custnr} neither inserted nor found`);
    return { id: found[0].id, created: false };
  }

  async upsertSeenMany(
    partnerId: string,
    sightings: readonly CustomerSighting[],
  ): Promise<CustomerSeenRow[]> {
    const merged = mergeSightings(sightings);
    if (merged.length === 0) return [];
    let rows = await this.upsertSeenStatement(partnerId, merged);
    // A custnr another writer inserted after this statement's snapshot was neither inserted (the
    // conflict skipped it) nor updated (invisible to the update): apply its values once more, now
    // that it is committed and visible to a new statement.
    const raced = rows.filter((row) => row.outcome === null).map((row) => row.custnr);
    if (raced.length > 0) {
      const again = new Map(
        (
          await this.upsertSeenStatement(
            partnerId,
            merged.filter((s) => raced.includes(s.custnr)),
          )
        ).map((row) => [row.custnr, row]),
      );
      rows = rows.map((row) => again.get(row.custnr) ?? row);
    }
    return rows.map((row) => ({
      custnr: row.custnr,
      id: row.id ?? '',
      outcome: row.outcome ?? 'unchanged',
    }));
  }

  /**
   * One statement: known customers get what differs (a left-out name or e-mail keeps its value, an
   * unchanged customer is not written at all, so `modified` only moves on a real change), unknown
   * custnrs are inserted in order. Update first in spirit: the NOT EXISTS keeps a known customer from
   * drawing a customer_id, which an INSERT … ON CONFLICT DO UPDATE would, and partners would see the
   * ids of the customers they create jump. ON CONFLICT covers a concurrent insert (outcome null).
   */
  private async upsertSeenStatement(
    partnerId: string,
    sightings: readonly CustomerSighting[],
  ): Promise<Array<{ custnr: string; id: string | null; outcome: CustomerSeenOutcome | null }>> {
    const rows = (await translateDataException(() =>
      this.manager.query(
        `WITH input AS (
           SELECT t.custnr, t.name, t.email, t.ord
             FROM unnest($2::varchar[], $3::varchar[], $4::varchar[]) WITH ORDINALITY AS t(custnr, name, email, ord)),
         updated AS (
           UPDATE customers c
              SET name = COALESCE(i.name, c.name), email = COALESCE(i.email, c.email), modified = now()
             FROM input i
            WHERE c.partner_id = $1 AND c.custnr = i.custnr
              AND (c.name IS DISTINCT FROM COALESCE(i.name, c.name)
                   OR c.email IS DISTINCT FROM COALESCE(i.email, c.email))
           RETURNING c.custnr, c.id),
         inserted AS (
           INSERT INTO customers (partner_id, custnr, name, email)
           SELECT $1, i.custnr, COALESCE(i.name, i.custnr), i.email
             FROM input i
            WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.partner_id = $1 AND c.custnr = i.custnr)
            ORDER BY i.ord
           ON CONFLICT (partner_id, custnr) DO NOTHING
           RETURNING custnr, id),
         known AS (
           SELECT c.custnr, c.id FROM customers c JOIN input i ON c.partner_id = $1 AND c.custnr = i.custnr)
         SELECT i.custnr,
                COALESCE(ins.id, upd.id, k.id)::text AS id,
                CASE WHEN ins.id IS NOT NULL THEN 'created'
                     WHEN upd.id IS NOT NULL THEN 'updated'
                     WHEN k.id IS NOT NULL THEN 'unchanged' END AS outcome
           FROM input i
           LEFT JOIN inserted ins ON ins.custnr = i.custnr
           LEFT JOIN updated upd ON upd.custnr = i.custnr
           LEFT JOIN known k ON k.custnr = i.custnr
          ORDER BY i.ord`,
        [
          partnerId,
          sightings.map((s) => s.custnr),
          sightings.map((s) => s.seen.name ?? null),
          sightings.map((s) => s.seen.email ?? null),
        ],
      ),
    )) as Array<{ custnr: string; id: string | null; outcome: CustomerSeenOutcome | null }>;
    return rows;
  }
}

/** One sighting per custnr, in order of first sighting; later values win, left-out ones keep earlier. */
export function mergeSightings(sightings: readonly CustomerSighting[]): CustomerSighting[] {
  const byCustnr = new Map<string, CustomerSeen>();
  for (const { custnr, seen } of sightings) {
    const earlier = byCustnr.get(custnr) ?? {};
    byCustnr.set(custnr, {
      ...earlier,
      ...(seen.name === undefined ? {} : { name: seen.name }),
      ...(seen.email === undefined ? {} : { email: seen.email }),
    });
  }
  return [...byCustnr].map(([custnr, seen]) => ({ custnr, seen }));
}

async function translateCustnrConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, CUSTNR_CONSTRAINT)) {
      throw new ValidationError('custnr', 'is already used by another customer');
    }
    throw error;
  }
}

// SQLSTATE class 22 (data exception, e.g. a NUL character): the values can never be stored, so the
// caller must not retry them; anything else (a lost connection) may succeed next time.
async function translateDataException<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDataException(error)) {
      throw new ValidationError('customer', `cannot be stored (${(error as Error).message})`);
    }
    throw error;
  }
}

function toCustomer(row: CustomerEntity): Customer {
  return {
    id: row.id,
    partnerId: row.partnerId,
    uuid: row.uuid,
    name: row.name,
    custnr: row.custnr,
    corporateid: row.corporateid,
    email: row.email,
    dncsClassName: row.dncsClassName,
    receiveMonthlyReport: row.receiveMonthlyReport,
    serviceCallerId: row.serviceCallerId,
    customFields: row.customFields,
    created: row.created,
    modified: row.modified,
  };
}
