import { ForbiddenError } from '@trackline/domain';
import { TypeormCdrsStore } from '../cdrs/cdrs.store';
import { createTestStores, type TestStores } from '../test-support/test-service';
import { insertTestPartners } from '../test-support/test-partners';
import { untilBlockedOnLock } from '../test-support/lock-waits';

const NOW = new Date('2026-03-02T10:00:00Z');

// DELETE /customers/:id on the real tables: a customer whose records or held-back numbers would be
// stranded is kept (docs/cdrs.md, "Deleting a customer").
describe('deleting a customer', () => {
  let stores: TestStores;
  let partnerId: string;
  let counter = 0;

  beforeAll(async () => {
    stores = await createTestStores();
    [partnerId] = (await insertTestPartners(stores.dataSource.manager, 'acme')) as [string];
  });

  afterAll(async () => {
    await stores?.release();
  });

  async function customer(): Promise<string> {
    counter += 1;
    const [{ id }] = await stores.dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', $2) RETURNING id::text AS id`,
      [partnerId, `K-${counter}`],
    );
    return id as string;
  }

  async function closedSource(customerId: string, heldUntil: Date): Promise<void> {
    counter += 1;
    const destnr = `+4742${String(counter).padStart(6, '0')}`;
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at, held_until) VALUES ($1, $2, 'static', $3, $4)`,
      [partnerId, destnr, NOW, heldUntil],
    );
    await stores.dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, status, activated_at, closed_at)
       VALUES ($1, $2, 'Old ad', '+4722334455', $3, 'closed', '2026-01-01T00:00:00Z', '2026-02-28T00:00:00Z')`,
      [partnerId, customerId, destnr],
    );
  }

  async function callRecord(customerId: string): Promise<void> {
    counter += 1;
    await stores.dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
         quarantined, timestamp)
       VALUES ($1, $2, $3, $4, 60, '+4791234567', '+4790000001', true, false, false, $4)`,
      [`del-${counter}`, partnerId, customerId, NOW],
    );
  }

  const remove = (customerId: string) => stores.services.customers.delete(partnerId, customerId, NOW);

  it('refuses while the customer has call records, and they stay listable', async () => {
    const id = await customer();
    await callRecord(id);
    await expect(remove(id)).rejects.toThrow(
      new ForbiddenError(
        `Customer ${id} has call records; they stay listable under the customer, so it cannot be deleted`,
      ),
    );
    const page = await new TypeormCdrsStore(stores.dataSource.manager).page({
      partnerId,
      customerId: id,
      from: null,
      to: null,
      limit: 10,
      offset: 0,
    });
    expect(page.total).toBe(1);
  });

  it('refuses while a closed source’s number is held back, and deletes once it is free', async () => {
    const held = await customer();
    await closedSource(held, new Date(NOW.getTime() + 1000));
    await expect(remove(held)).rejects.toBeInstanceOf(ForbiddenError);
    const free = await customer();
    await closedSource(free, NOW);
    expect((await remove(free)).id).toBe(free);
  });

  it('waits for a record being stored under the customer, then refuses', async () => {
    const id = await customer();
    const runner = stores.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      // What ingestion does inside a record's transaction before its insert.
      expect(await new TypeormCdrsStore(runner.manager).lockCustomer(partnerId, id)).toBe(true);
      let settled = false;
      const deleting = remove(id).finally(() => {
        settled = true;
      });
      await untilBlockedOnLock(stores.dataSource);
      expect(settled).toBe(false);
      await runner.query(
        `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
           quarantined, timestamp)
         VALUES ('del-race', $1, $2, $3, 60, '+4791234567', '+4790000001', true, false, false, $3)`,
        [partnerId, id, NOW],
      );
      await runner.commitTransaction();
      await expect(deleting).rejects.toBeInstanceOf(ForbiddenError);
    } finally {
      await runner.release();
    }
  });
});
