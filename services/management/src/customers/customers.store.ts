import { ValidationError } from '@trackline/domain';
import { QueryFailedError, type EntityManager } from 'typeorm';
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
   * A visitor request named this custnr (SPEC §3): create the customer, or set the given name and
   * e-mail where they differ. Keys left out keep the stored value; a new customer sent without a
   * name is named by its custnr (name is required). One statement, so two consumers cannot both insert.
   * Throws ValidationError for values the database can never store.
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

const UNIQUE_VIOLATION = '23505';
const CUSTNR_CONSTRAINT = 'UQ_customers_partner_custnr';

export class TypeormCustomersStore implements CustomersStore {
  constructor(private readonly manager: EntityManager) {}

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
    const values = [partnerId, custnr, seen.name ?? null, seen.email ?? null];
    // Update first: an INSERT … ON CONFLICT would draw a new customer_id for every event of a known
    // customer, and partners would see the ids of the customers they create jump.
    if (await this.updateSeen(values)) return 'updated';
    // The NOT EXISTS keeps a known customer from drawing an id; ON CONFLICT covers a concurrent insert.
    const inserted = (await translateDataException(() =>
      this.manager.query(
        `INSERT INTO customers (partner_id, custnr, name, email)
         SELECT $1, $2::varchar, COALESCE($3::varchar, $2::varchar), $4::varchar
          WHERE NOT EXISTS (SELECT 1 FROM customers WHERE partner_id = $1 AND custnr = $2)
         ON CONFLICT (partner_id, custnr) DO NOTHING
         RETURNING id`,
        values,
      ),
    )) as unknown[];
    if (inserted.length > 0) return 'created';
    // Known and unchanged, or inserted by another consumer a moment ago: apply these values once more.
    return (await this.updateSeen(values)) ? 'updated' : 'unchanged';
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

  /** Writes what differs (a left-out name or e-mail keeps its value); false when nothing did. */
  private async updateSeen(values: Array<string | null>): Promise<boolean> {
    // The WHERE skips an update that changes nothing, so `modified` only moves on a real change.
    // Wrapped in a WITH … SELECT because TypeORM answers a bare UPDATE with [rows, count], not the rows.
    const rows = (await translateDataException(() =>
      this.manager.query(
        `WITH changed AS (
         UPDATE customers
            SET name = COALESCE($3::varchar, name), email = COALESCE($4::varchar, email), modified = now()
          WHERE partner_id = $1 AND custnr = $2
            AND (name IS DISTINCT FROM COALESCE($3::varchar, name)
                 OR email IS DISTINCT FROM COALESCE($4::varchar, email))
         RETURNING id)
         SELECT id FROM changed`,
        values,
      ),
    )) as unknown[];
    return rows.length > 0;
  }
}

async function translateCustnrConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const driverError =
      error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : {};
    if (driverError.code === UNIQUE_VIOLATION && driverError.constraint === CUSTNR_CONSTRAINT) {
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
    const driverError = error instanceof QueryFailedError ? (error.driverError as { code?: string }) : {};
    if (driverError.code?.startsWith('22') === true) {
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
