import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { LeasedQueue } from './leased-queue';

// A queue of its own shape, as a new outbox would have it: the helper needs nothing but the table's
// name and the columns a claim answers (the notification and webhook outboxes are covered by their
// workers' tests).
// The columns every leased queue has (docs/architecture.md, Background work).
const QUEUE_COLUMNS = `
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    status varchar(8) NOT NULL DEFAULT 'pending',
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error text,
    locked_by varchar(200),
    locked_until timestamptz,
    sent_at timestamptz`;

const TABLE = `
  CREATE TABLE export_queue (${QUEUE_COLUMNS},
    target varchar(40) NOT NULL,
    exported_rows integer
  )`;

const T0 = new Date('2031-05-01T10:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('LeasedQueue', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let queue: LeasedQueue;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    await dataSource.query(TABLE);
    queue = new LeasedQueue(dataSource.manager, {
      table: 'export_queue',
      claimColumns: ['o.target'],
      maxErrorLength: 10,
    });
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE export_queue RESTART IDENTITY');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function enqueue(target: string, dueAt: Date): Promise<string> {
    const [row] = (await dataSource.query(
      'INSERT INTO export_queue (target, next_attempt_at) VALUES ($1, $2) RETURNING id::text AS id',
      [target, dueAt],
    )) as Array<{ id: string }>;
    return row!.id;
  }

  async function state(id: string) {
    const [row] = (await dataSource.query(
      `SELECT status, attempts, next_attempt_at, last_error, locked_by, locked_until, sent_at, exported_rows
         FROM export_queue WHERE id = $1`,
      [id],
    )) as Array<Record<string, unknown>>;
    return row;
  }

  it('leases the due rows, earliest due first, up to the limit, answering them in id order', async () => {
    const late = await enqueue('late', at(-10));
    const early = await enqueue('early', at(-60));
    await enqueue('not yet', at(30));
    const middle = await enqueue('middle', at(-30));

    const claimed = await queue.claim({ worker: 'w1', now: T0, leaseUntil: at(120), limit: 2 });

    expect(claimed).toEqual([
      { id: early, attempts: 1, target: 'early' },
      { id: middle, attempts: 1, target: 'middle' },
    ]);
    expect(await state(early)).toMatchObject({ status: 'sending', locked_by: 'w1', locked_until: at(120) });
    expect(await state(late)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
  });

  it('orders by the id as a number (10 after 9)', async () => {
    for (let i = 1; i <= 10; i++) await enqueue(`t${i}`, at(-1));
    const claimed = await queue.claim({ worker: 'w1', now: T0, leaseUntil: at(120), limit: 10 });
    expect(claimed.map((row) => row.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  });

  it('leaves a row to the worker whose lease runs, and takes it back when the lease ran out', async () => {
    const id = await enqueue('x', at(-1));
    await queue.claim({ worker: 'dying', now: T0, leaseUntil: at(60), limit: 5 });

    expect(await queue.claim({ worker: 'w2', now: at(59), leaseUntil: at(200), limit: 5 })).toEqual([]);
    expect(await queue.claim({ worker: 'w2', now: at(60), leaseUntil: at(200), limit: 5 })).toEqual([
      { id, attempts: 2, target: 'x' },
    ]);
    // The first worker's late marks change nothing: the row is the second's now.
    expect(await queue.complete(id, 'dying', { status: 'sent', now: at(61) })).toBe(false);
    expect(await queue.fail(id, 'dying', { error: 'late', retryAt: null })).toBe(false);
    expect(await state(id)).toMatchObject({ status: 'sending', locked_by: 'w2', last_error: null });
  });

  it('never gives one row to two claims running at once', async () => {
    for (let i = 0; i < 20; i++) await enqueue(`t${i}`, at(-1));
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd'].map((worker) => queue.claim({ worker, now: T0, leaseUntil: at(60), limit: 10 })),
    );
    const ids = claims.flat().map((row) => row.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('completes a row with its final status and the columns named, clearing lease and error', async () => {
    const id = await enqueue('x', at(-1));
    await queue.claim({ worker: 'w1', now: T0, leaseUntil: at(60), limit: 1 });
    await queue.fail(id, 'w1', { error: 'first try', retryAt: at(1) });
    await queue.claim({ worker: 'w1', now: at(1), leaseUntil: at(60), limit: 1 });

    expect(await queue.complete(id, 'w1', { status: 'sent', now: at(2), set: { exported_rows: 7 } })).toBe(
      true,
    );
    expect(await state(id)).toEqual({
      status: 'sent',
      attempts: 2,
      next_attempt_at: at(1),
      last_error: null,
      locked_by: null,
      locked_until: null,
      sent_at: at(2),
      exported_rows: 7,
    });
    // Final: no claim takes it again, and no second mark changes it.
    expect(await queue.claim({ worker: 'w2', now: at(999), leaseUntil: at(1999), limit: 1 })).toEqual([]);
    expect(await queue.fail(id, 'w1', { error: 'again', retryAt: null })).toBe(false);
  });

  it('puts a failed row back until its retry time, or marks it dead without one, the error cut short', async () => {
    const retried = await enqueue('retried', at(-1));
    const dead = await enqueue('dead', at(-1));
    await queue.claim({ worker: 'w1', now: T0, leaseUntil: at(60), limit: 2 });

    expect(await queue.fail(retried, 'w1', { error: 'receiver answered 503', retryAt: at(30) })).toBe(true);
    expect(await queue.fail(dead, 'w1', { error: 'refused', retryAt: null, set: { exported_rows: 0 } })).toBe(
      true,
    );

    expect(await state(retried)).toMatchObject({
      status: 'pending',
      next_attempt_at: at(30),
      last_error: 'receiver a',
      locked_by: null,
      locked_until: null,
    });
    expect(await state(dead)).toMatchObject({ status: 'dead', last_error: 'refused', exported_rows: 0 });
    expect(await queue.claim({ worker: 'w1', now: at(29), leaseUntil: at(90), limit: 5 })).toEqual([]);
    expect(await queue.claim({ worker: 'w1', now: at(30), leaseUntil: at(90), limit: 5 })).toEqual([
      { id: retried, attempts: 2, target: 'retried' },
    ]);
  });

  it('claims the rows named whatever their due time, but not one a live worker holds nor a final one', async () => {
    const waiting = await enqueue('waiting', at(3_600));
    const held = await enqueue('held', at(-1));
    const done = await enqueue('done', at(-1));
    await queue.claim({ worker: 'w1', now: T0, leaseUntil: at(60), limit: 2 });
    await queue.complete(done, 'w1', { status: 'sent', now: T0 });

    const claimed = await queue.claimIds([waiting, held, done], {
      worker: 'operator',
      now: at(1),
      leaseUntil: at(61),
    });

    expect(claimed).toEqual([{ id: waiting, attempts: 1, target: 'waiting' }]);
    expect(await state(held)).toMatchObject({ locked_by: 'w1' });
  });

  it('refuses a table or column name that is not a plain identifier', () => {
    expect(
      () =>
        new LeasedQueue(dataSource.manager, {
          table: 'x; DROP TABLE y',
          claimColumns: [],
          maxErrorLength: 1,
        }),
    ).toThrow('not a column or table name');
    return expect(
      queue.complete('1', 'w', { status: 'sent', now: T0, set: { 'sent_at = now(), status': 'x' } }),
    ).rejects.toThrow('not a column or table name');
  });

  it('is claimed with claimFair only when it has lanes', async () => {
    await expect(
      queue.claimFair({ worker: 'w', now: T0, leaseUntil: at(1), limit: 1, perLane: 1, slots: 1 }),
    ).rejects.toThrow('export_queue has no lanes to share');
  });
});

// The fair claim on a queue with lanes (FairShare), apart from the webhook and conversion outboxes
// whose workers' tests cover it end to end.
describe('LeasedQueue with lanes', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let queue: LeasedQueue;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    await dataSource.query(`
      CREATE TABLE export_lanes (id bigint PRIMARY KEY, tenant_id bigint NOT NULL, active boolean NOT NULL)`);
    await dataSource.query(`
      CREATE TABLE lane_queue (${QUEUE_COLUMNS},
        lane_id bigint NOT NULL REFERENCES export_lanes (id),
        tenant_id bigint NOT NULL
      )`);
    queue = new LeasedQueue(dataSource.manager, {
      table: 'lane_queue',
      claimColumns: ['o.tenant_id::text AS tenant_id'],
      maxErrorLength: 10,
      fairShare: {
        laneTable: 'export_lanes',
        laneColumn: 'lane_id',
        tenantColumn: 'tenant_id',
        laneActive: 'w.active',
        laneClaimColumns: [],
      },
    });
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE lane_queue RESTART IDENTITY');
    await dataSource.query('DELETE FROM export_lanes');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function lane(id: number, tenant: number, active: boolean, due: number): Promise<void> {
    await dataSource.query('INSERT INTO export_lanes (id, tenant_id, active) VALUES ($1, $2, $3)', [
      id,
      tenant,
      active,
    ]);
    await dataSource.query(
      `INSERT INTO lane_queue (lane_id, tenant_id, next_attempt_at)
       SELECT $1, $2, $3::timestamptz + g * interval '1 ms' FROM generate_series(1, $4) g`,
      [id, tenant, at(-60), due],
    );
  }

  const claimFair = async (worker: string, limit: number, slots: number) =>
    (await queue.claimFair({ worker, now: T0, leaseUntil: at(60), limit, perLane: 100, slots })).rows;

  it('never gives one row to two fair claims running at once', async () => {
    for (let i = 1; i <= 4; i++) await lane(i, i, true, 10);
    // Claims running together may pick the same candidates; each takes only what it could lock, so
    // rounds go on until every row is taken, and no row may be taken twice.
    const ids: string[] = [];
    for (let round = 0; round < 20 && ids.length < 40; round++) {
      const claims = await Promise.all(['a', 'b', 'c', 'd'].map((worker) => claimFair(worker, 10, 400)));
      ids.push(...claims.flat().map((row) => row.id));
    }
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });

  describe('says whether due rows were left for want of a slot (FairClaim.leftWaiting)', () => {
    /** How many rows a claim took, and whether it left due rows waiting. */
    const claimWith = async (limit: number, perLane: number, slots: number) => {
      const claim = await queue.claimFair({
        worker: 'w',
        now: T0,
        leaseUntil: at(60),
        limit,
        perLane,
        slots,
      });
      return { taken: claim.rows.length, leftWaiting: claim.leftWaiting };
    };

    it('no: every due row was taken, or none is due', async () => {
      expect(await claimWith(10, 10, 100)).toEqual({ taken: 0, leftWaiting: false });
      await lane(1, 1, true, 2);
      expect(await claimWith(10, 10, 100)).toEqual({ taken: 2, leftWaiting: false });
      // Taken and in flight: nothing is left.
      expect(await claimWith(10, 10, 100)).toEqual({ taken: 0, leftWaiting: false });
    });

    it('yes: a lane at its slots, first by this claim and then by the rows in flight', async () => {
      await lane(1, 1, true, 3);
      expect(await claimWith(10, 2, 100)).toEqual({ taken: 2, leftWaiting: true });
      expect(await claimWith(10, 2, 100)).toEqual({ taken: 0, leftWaiting: true });
    });

    it('yes: a tenant at its share', async () => {
      for (let id = 1; id <= 3; id++) await lane(id, 1, true, 1);
      // Four slots and one tenant with work: a share of two.
      expect(await claimWith(10, 10, 4)).toEqual({ taken: 2, leftWaiting: true });
    });

    it('yes: the claim’s limit', async () => {
      await lane(1, 1, true, 3);
      expect(await claimWith(2, 10, 100)).toEqual({ taken: 2, leftWaiting: true });
    });

    it('no: rows of a switched-off lane wait for the lane, not for a slot', async () => {
      await lane(1, 1, false, 3);
      expect(await claimWith(10, 1, 100)).toEqual({ taken: 0, leftWaiting: false });
    });
  });

  it('counts a tenant whose due rows wait only on a switched-off lane as having no work', async () => {
    await lane(1, 1, true, 10);
    await lane(2, 2, false, 10);
    // Four slots shared by one tenant with work: four divided by one more than one tenant.
    const claimed = await claimFair('w', 4, 4);
    expect(claimed.map((row) => row.tenant_id)).toEqual(['1', '1']);
  });
});
