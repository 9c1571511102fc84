import { encodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import type { CdrBatchPath, CdrIngestResult } from './cdr-ingest-metrics';
import { startRouteApp, type RouteApp } from '../test-support/route-calls';
import { insertTestPartners } from '../test-support/test-partners';
import { TypeormWebhooksStore } from '../webhooks/webhooks.store';
import type { CdrsService } from './cdrs.service';
import { composeCdrFeature } from '../composition/cdrs-composition';
import type { CdrFeature } from './create-cdrs';
import { OutboxBell, type OutboxName } from '../db/outbox-bell';

const TOKEN = 'switch-token-0123456789';
const STORED_AT = new Date('2026-04-01T12:00:00Z');

type Body = Record<string, unknown>;

/** What `trackline_cdrs_ingested_total` was told, by result. */
const counted = new Map<CdrIngestResult, number>();
const batches: CdrBatchPath[] = [];
/** The outboxes the bell was rung for, one entry per ring (db/outbox-bell.ts). */
const rung: OutboxName[] = [];

// Faults a database can raise, raised by the database itself while a record's call id is claimed, for
// the call ids named in test_faults; and every statement that wrote webhook deliveries, even one that
// wrote no row (docs/webhooks.md, "When an event is queued").
const FAULTS_SQL = `
  CREATE TABLE test_faults (call_id text PRIMARY KEY, sqlstate text NOT NULL, message text NOT NULL);
  CREATE FUNCTION test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE fault test_faults;
  BEGIN
    SELECT * INTO fault FROM test_faults WHERE call_id = NEW.call_id;
    IF FOUND THEN RAISE EXCEPTION USING ERRCODE = fault.sqlstate, MESSAGE = fault.message; END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER test_fault BEFORE INSERT ON cdr_call_ids FOR EACH ROW EXECUTE FUNCTION test_fault();
  CREATE TABLE test_delivery_statements (id serial PRIMARY KEY);
  CREATE FUNCTION test_delivery_statement() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO test_delivery_statements DEFAULT VALUES;
    RETURN NULL;
  END $$;
  CREATE TRIGGER test_delivery_statement AFTER INSERT ON webhook_deliveries
    FOR EACH STATEMENT EXECUTE FUNCTION test_delivery_statement();`;

/** An unexpected error (500) and a connection lost mid-write (SQLSTATE class 08, 503). */
const UNEXPECTED = { sqlstate: 'XX000', message: 'something no one expected' };
const CONNECTION_LOST = { sqlstate: '08006', message: 'connection failure' };

// POST /telephony/cdrs on real Postgres and Redis: whose call a pool-number record is, what an
// attribution an older version wrote becomes, and that each record of a batch stands alone
// (docs/cdrs.md).
describe('call record ingestion: attribution and batch isolation', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let testRedis: TestRedis;
  let redis: Redis;
  let server: RouteApp;
  let base: string;
  let feature: CdrFeature;
  let partnerId: string;
  let betaId: string;
  let list: CdrsService;
  let numberCounter = 0;
  let callCounter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    await dataSource.query(FAULTS_SQL);
    const bell = new OutboxBell();
    for (const outbox of ['webhooks', 'notifications', 'conversions'] as const)
      bell.listen(outbox, () => rung.push(outbox));
    feature = composeCdrFeature({
      dataSource,
      redis,
      keyPrefix: testRedis.keyPrefix,
      telephonyToken: TOKEN,
      metrics: {
        cdrIngested: (result, count = 1) => void counted.set(result, (counted.get(result) ?? 0) + count),
        cdrBatch: (path) => void batches.push(path),
      },
      outboxBell: bell,
    });
    list = feature.list;
    // The switch's endpoint through the real route registration and error mapper.
    server = await startRouteApp(feature.switchRoutes, { clock: () => STORED_AT });
    base = server.base;
    [partnerId, betaId] = (await insertTestPartners(dataSource.manager, 'acme', 'beta')) as [string, string];
  });

  afterAll(async () => {
    await server.close();
    redis.disconnect();
    await testRedis.cleanup();
    await dataSource.destroy();
    await database.drop();
  });

  afterEach(async () => {
    counted.clear();
    batches.length = 0;
    rung.length = 0;
    await dataSource.query('DELETE FROM test_faults');
  });

  async function fault(callId: string, raised: { sqlstate: string; message: string }): Promise<void> {
    await dataSource.query('INSERT INTO test_faults (call_id, sqlstate, message) VALUES ($1, $2, $3)', [
      callId,
      raised.sqlstate,
      raised.message,
    ]);
  }

  async function deliveryStatements(): Promise<number> {
    const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM test_delivery_statements');
    return count as number;
  }

  async function post(body: unknown): Promise<{ status: number; body: Body }> {
    return postText(JSON.stringify(body));
  }

  /** The body as sent: `__proto__` survives only in JSON text, not in an object literal. */
  async function postText(text: string): Promise<{ status: number; body: Body }> {
    const response = await fetch(`${base}/telephony/cdrs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: text,
    });
    return { status: response.status, body: (await response.json()) as Body };
  }

  async function trackingNumber(kind: 'static' | 'pool', owner = partnerId): Promise<string> {
    numberCounter += 1;
    const e164 = `+4741${String(numberCounter).padStart(6, '0')}`;
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, $2, $3, now())`,
      [owner, e164, kind],
    );
    return e164;
  }

  async function customer(custnr: string, name = custnr): Promise<string> {
    const [{ id }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, $2, $3) RETURNING id::text AS id`,
      [partnerId, name, custnr],
    );
    return id as string;
  }

  async function source(customerId: string, phonenr: string): Promise<string> {
    const [{ id }] = await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
       VALUES ($1, $2, 'Ad page', $3, $4, now()) RETURNING id::text AS id`,
      [partnerId, customerId, phonenr, await trackingNumber('static')],
    );
    return id as string;
  }

  function call(bnum: string, fields: Body = {}): Body {
    callCounter += 1;
    return {
      call_id: `ingest-${callCounter}`,
      anum: '+4791234567',
      bnum,
      start: '2026-03-02 09:00:00',
      duration: 60,
      answered: 1,
      ...fields,
    };
  }

  /** What replacement's /telephony/route stores for a pool-number call of a DNI session. */
  async function routed(record: Body, fields: Partial<CallAttribution> = {}): Promise<void> {
    const attribution: CallAttribution = {
      callId: record.call_id as string,
      advId: 'acme',
      anum: record.anum as string,
      bnum: record.bnum as string,
      at: '2026-03-02T09:00:00.000Z',
      action: 'dial',
      target: '+4723999999',
      sourceId: null,
      customerId: null,
      vmGreetingId: null,
      sessionId: '4f0c1a52-7a8e-4f51-9b43-1d2c3b4a5e6f',
      trackingId: 'visitor-1',
      fullUrl: 'https://ads.example/1234',
      fullReferrer: '',
      custnr: null,
      parameters: {},
      quarantined: false,
      kind: 'session',
      boundAt: Date.parse('2026-03-02T08:58:00.000Z'),
      ...fields,
    };
    await redis.set(
      partnerKeys(testRedis.keyPrefix, 'acme').call(attribution.callId),
      encodeCallAttribution(attribution),
    );
  }

  async function listed(custnr: string): Promise<Body[]> {
    const page = await list.list(
      { id: partnerId, timeZone: 'Europe/Oslo' },
      {
        customerId: null,
        custnr,
        fromDate: null,
        toDate: null,
        extended: true,
        page: 0,
        pageSize: 1000,
      },
    );
    return page.cdrs as unknown as Body[];
  }

  describe('whose call it is', () => {
    it('gives a DNI call to the customer its session named, listable by custnr', async () => {
      const customerId = await customer('K-10', 'Kari AS');
      const pool = await trackingNumber('pool');
      const record = call(pool);
      await routed(record, { custnr: 'K-10', parameters: { custnr: 'K-10', adId: '77' } });
      const answer = await post(record);
      expect(answer.status).toBe(201);
      expect((answer.body.cdrs as Body[])[0]).toMatchObject({
        customer_id: customerId,
        custnr: 'K-10',
        source_id: null,
        session_id: '4f0c1a52-7a8e-4f51-9b43-1d2c3b4a5e6f',
        tracking_id: 'visitor-1',
        full_url: 'https://ads.example/1234',
        parameters: { custnr: 'K-10', adId: '77' },
      });
      expect((await listed('K-10')).map((cdr) => cdr.callId)).toEqual([record.call_id]);
    });

    it('creates the named customer when the stream has not, once, from the session’s values', async () => {
      const pool = await trackingNumber('pool');
      const first = call(pool);
      const second = call(pool);
      const parameters = { custnr: 'N-1', custname: 'Ny Kunde AS', custemail: 'post@ny.example' };
      await routed(first, { custnr: 'N-1', parameters });
      await routed(second, { custnr: 'N-1', parameters });
      const answer = await post([first, second]);
      expect(answer.status).toBe(200);
      const customers = await dataSource.query(
        `SELECT id::text AS id, name, email FROM customers WHERE partner_id = $1 AND custnr = 'N-1'`,
        [partnerId],
      );
      expect(customers).toEqual([{ id: expect.any(String), name: 'Ny Kunde AS', email: 'post@ny.example' }]);
      expect((answer.body.cdrs as Body[]).map((cdr) => [cdr.customer_id, cdr.custnr])).toEqual([
        [customers[0].id, 'N-1'],
        [customers[0].id, 'N-1'],
      ]);
      expect(await listed('N-1')).toHaveLength(2);
    });

    it('keeps the source whose phonenr the page showed, and the customer of the session', async () => {
      const owner = await customer('S-1');
      const sourceId = await source(owner, '+4723100001');
      const visitor = await customer('V-1');
      const pool = await trackingNumber('pool');
      const named = call(pool);
      await routed(named, { custnr: 'V-1', target: '+4723100001' });
      const unnamed = call(pool);
      await routed(unnamed, { target: '+4723100001' });
      const blank = call(pool);
      await routed(blank, { custnr: '  ', target: '+4799999999' });
      const answer = await post([named, unnamed, blank]);
      expect((answer.body.cdrs as Body[]).map((cdr) => [cdr.customer_id, cdr.custnr, cdr.source_id])).toEqual(
        [
          [visitor, 'V-1', sourceId],
          // Without a custnr the source's customer; without either, nobody's.
          [owner, 'S-1', sourceId],
          [null, null, null],
        ],
      );
    });
  });

  describe('one transaction a batch', () => {
    afterEach(() => jest.restoreAllMocks());

    /** The texts node-postgres was asked to send while `work` ran, in order. */
    async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
      const sent: string[] = [];
      const query = pg.Client.prototype.query;
      jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const [config] = args;
        sent.push(typeof config === 'string' ? config : (config as { text: string }).text);
        return (query as (...a: unknown[]) => never).apply(this, args);
      });
      await work();
      return sent;
    }

    it('looks a DNI call up and stores it in one transaction: every statement between START and COMMIT', async () => {
      const owner = await customer('T-1');
      const sourceId = await source(owner, '+4723100077');
      const pool = await trackingNumber('pool');
      // The partner's webhook subscriptions are remembered a minute (docs/webhooks.md): read them first.
      const first = call(pool);
      await routed(first, { custnr: 'T-1', sourceId });
      expect((await post(first)).status).toBe(201);

      const record = call(pool);
      await routed(record, { custnr: 'T-1', sourceId });
      let answer: { status: number; body: Body } | undefined;
      const sent = await statementsOf(async () => (answer = await post(record)));
      expect(answer!.status).toBe(201);
      expect((answer!.body.cdrs as Body[])[0]).toMatchObject({ customer_id: owner, source_id: sourceId });
      // The numbers, the customer and the source the session named were all read in the transaction.
      expect(sent[0]).toBe('START TRANSACTION');
      expect(sent[sent.length - 1]).toBe('COMMIT');
      expect(sent.filter((text) => text === 'START TRANSACTION' || text === 'COMMIT')).toHaveLength(2);
      expect(sent.some((text) => text.includes('"customers"'))).toBe(true);
      expect(sent.some((text) => text.includes('"sources"'))).toBe(true);
      expect(batches).toEqual(['one_transaction', 'one_transaction']);
    });
  });

  describe('text an older version accepted', () => {
    it('stores the call with the text cleaned by the one rule, and the batch around it', async () => {
      const pool = await trackingNumber('pool');
      const ok1 = call(pool);
      const poisoned = call(pool);
      const ok2 = call(pool);
      await routed(ok1);
      await routed(poisoned, {
        fullUrl: 'https://ads.example/\u0000x',
        fullReferrer: 'https://search.example/\ud83d',
        trackingId: 't'.repeat(150),
        parameters: { adId: 'a\udc00b', 'k\u0000': 'v' },
      });
      await routed(ok2);
      const answer = await post([ok1, poisoned, ok2]);
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toEqual([]);
      expect((answer.body.cdrs as Body[])[1]).toMatchObject({
        call_id: poisoned.call_id,
        full_url: 'https://ads.example/\ufffdx',
        full_referrer: 'https://search.example/\ufffd',
        tracking_id: 't'.repeat(100),
        parameters: { adId: 'a\ufffdb', 'k\ufffd': 'v' },
      });
      const stored = await dataSource.query(`SELECT call_id FROM cdrs WHERE call_id = ANY($1) ORDER BY id`, [
        [ok1.call_id, poisoned.call_id, ok2.call_id],
      ]);
      expect(stored).toHaveLength(3);
    });
  });

  describe('each record of a batch stands alone', () => {
    it('names a record refused by a rule and stores the others', async () => {
      const bnum = await trackingNumber('static');
      const ok1 = call(bnum);
      const ok2 = call(bnum);
      const answer = await post([ok1, call(bnum, { call_id: 'a b' }), ok2]);
      expect(answer.status).toBe(207);
      expect((answer.body.cdrs as Body[]).map((cdr) => cdr.call_id)).toEqual([ok1.call_id, ok2.call_id]);
      expect(answer.body.errors).toEqual([
        {
          index: '1',
          call_id: 'a b',
          status: '400',
          message: 'call_id: must be 1 to 128 printable ASCII characters without spaces',
        },
      ]);
    });

    // Names and nesting the edge refuses in a body of its own refuse one record here, never the batch.
    const nested = (levels: number): unknown => (levels === 0 ? 'x' : { x: nested(levels - 1) });
    it.each([
      ['constructor', '"constructor":"x"', 'constructor: is not a call record field'],
      ['toString', '"toString":"x"', 'toString: is not a call record field'],
      ['__proto__', '"__proto__":{"polluted":"1"}', '__proto__: is not a known field'],
      ['an empty name', '"":"x"', '(empty name): is not a known field'],
      [
        'NUL in a name',
        '"a\\u0000b":"x"',
        '"a?b": is not a known field: names must not contain NUL characters or unpaired UTF-16 surrogates',
      ],
      [
        '17 levels of nesting',
        `"recording":${JSON.stringify(nested(16))}`,
        `recording${'.x'.repeat(15)}: must not nest deeper than 16 levels`,
      ],
    ])('stores the good record beside one carrying %s, which gets its entry', async (_, extra, message) => {
      const bnum = await trackingNumber('static');
      const good = call(bnum);
      const bad = call(bnum);
      const text = `[${JSON.stringify(good)},${JSON.stringify(bad).slice(0, -1)},${extra}}]`;
      const answer = await postText(text);
      expect(answer.status).toBe(207);
      expect((answer.body.cdrs as Body[]).map((cdr) => cdr.call_id)).toEqual([good.call_id]);
      expect(answer.body.errors).toEqual([{ index: '1', call_id: bad.call_id, status: '400', message }]);
      expect(({} as Body).polluted).toBeUndefined();
      const stored: Array<{ call_id: string }> = await dataSource.query(
        `SELECT call_id FROM cdrs WHERE bnum = $1`,
        [bnum],
      );
      expect(stored.map((row) => row.call_id)).toEqual([good.call_id]);
      // The switch's retry gets the good record back as stored and the bad one refused again.
      const retry = await postText(text);
      expect(retry.status).toBe(207);
      expect((retry.body.cdrs as Body[]).map((cdr) => cdr.call_id)).toEqual([good.call_id]);
      expect(retry.body.errors).toEqual(answer.body.errors);
    });

    it('turns an unexpected failure of one record into its entry in errors', async () => {
      const bnum = await trackingNumber('static');
      const [ok1, broken, lost, ok2] = [call(bnum), call(bnum), call(bnum), call(bnum)];
      await fault(broken.call_id as string, UNEXPECTED);
      await fault(lost.call_id as string, CONNECTION_LOST);
      const answer = await post([ok1, broken, lost, ok2]);
      expect(answer.status).toBe(207);
      expect((answer.body.cdrs as Body[]).map((cdr) => cdr.call_id)).toEqual([ok1.call_id, ok2.call_id]);
      expect(answer.body.errors).toEqual([
        {
          index: '1',
          call_id: broken.call_id,
          status: '500',
          message: 'Call record could not be stored (internal error, logged)',
        },
        {
          index: '2',
          call_id: lost.call_id,
          status: '503',
          message: 'Call record cannot be stored right now; retry later',
        },
      ]);
      expect(Object.fromEntries(counted)).toEqual({ stored: 2, error: 1, unavailable: 1 });
      // The batch's one transaction failed, so every record was stored in one of its own.
      expect(batches).toEqual(['per_record']);
      // The retry of the whole batch stores what failed and repeats the rest, in one transaction.
      await dataSource.query('DELETE FROM test_faults');
      const retry = await post([ok1, broken, lost, ok2]);
      expect(retry.status).toBe(200);
      expect(batches).toEqual(['per_record', 'one_transaction']);
      expect((retry.body.cdrs as Body[]).map((cdr) => cdr.call_id)).toEqual(
        [ok1, broken, lost, ok2].map((c) => c.call_id),
      );
    });

    it('answers 503, never 500, when the store is unreachable, for one record and for a batch', async () => {
      const bnum = await trackingNumber('static');
      await fault('only', CONNECTION_LOST);
      expect(await post(call(bnum, { call_id: 'only' }))).toEqual({
        status: 503,
        body: { error: { status: 503, message: 'Call record cannot be stored right now; retry later' } },
      });
      // The batch's lookups need Redis too: with it unreachable, nothing of the batch is stored.
      const unreachable = new Redis({
        port: 1,
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      const cut = composeCdrFeature({
        dataSource,
        redis: unreachable,
        keyPrefix: testRedis.keyPrefix,
        telephonyToken: TOKEN,
        metrics: {
          cdrIngested: (result, count = 1) => void counted.set(result, (counted.get(result) ?? 0) + count),
          cdrBatch: () => undefined,
        },
      });
      const cutServer = await startRouteApp(cut.switchRoutes, { clock: () => STORED_AT });
      try {
        const answer = await fetch(`${cutServer.base}/telephony/cdrs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify([call(bnum), call(bnum)]),
        });
        expect({ status: answer.status, body: await answer.json() }).toEqual({
          status: 503,
          body: { error: { status: 503, message: 'Call records cannot be stored right now; retry later' } },
        });
      } finally {
        await cutServer.close();
        unreachable.disconnect();
      }
    });
  });
  // docs/cdrs.md, "Calls posted one at a time": requests that arrive while a write is under way are
  // stored together, and each is answered as if it had been stored alone.
  describe('calls posted one at a time while another is being stored', () => {
    it('stores them in one merged batch, each request answered with its own records', async () => {
      const bnum = await trackingNumber('static');
      const [first, second, faulted] = [call(bnum), call(bnum), call(bnum)];
      await fault(faulted.call_id as string, UNEXPECTED);
      // The partner's row locked: the first request's write waits for it in its transaction.
      const holder = dataSource.createQueryRunner();
      await holder.connect();
      await holder.startTransaction();
      let answers: Array<{ status: number; body: Body }>;
      try {
        await holder.query('SELECT 1 FROM partners WHERE id = $1 FOR UPDATE', [partnerId]);
        const firstAnswer = post(first);
        await waitForLockWait();
        const merged = [post(second), post({ ...second, duration: 5 }), post(faulted)];
        // Let the three reach the queue behind the write under way.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await holder.commitTransaction();
        answers = await Promise.all([firstAnswer, ...merged]);
      } finally {
        if (holder.isTransactionActive) await holder.rollbackTransaction();
        await holder.release();
      }

      const [firstAnswer, secondAnswer, repeatAnswer, faultedAnswer] = answers;
      expect(firstAnswer!.status).toBe(201);
      expect(secondAnswer!.status).toBe(201);
      // The same call id in a later request of the batch: the record the earlier one stored.
      expect(repeatAnswer).toEqual({ status: 200, body: secondAnswer!.body });
      expect(faultedAnswer).toEqual({
        status: 500,
        body: { error: { status: 500, message: 'Call record could not be stored (internal error, logged)' } },
      });
      // Two writes for four requests: the first alone, the three that waited in one transaction,
      // which the faulted record failed, so each was then stored in one of its own.
      expect(batches).toEqual(['one_transaction', 'per_record']);
      expect(Object.fromEntries(counted)).toEqual({ stored: 2, duplicate: 1, error: 1 });
      const stored: Array<{ call_id: string; duration: number }> = await dataSource.query(
        'SELECT call_id, duration FROM cdrs WHERE bnum = $1 ORDER BY id',
        [bnum],
      );
      expect(stored).toEqual([
        { call_id: first.call_id, duration: 60 },
        { call_id: second.call_id, duration: 60 },
      ]);
    });

    async function waitForLockWait(): Promise<void> {
      for (let tries = 0; tries < 200; tries += 1) {
        const [{ waiting }] = await dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (waiting > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the first write never waited for the locked partner row');
    }
  });

  describe('a call id is unique per partner', () => {
    it('stores the same call_id once for each partner, and answers each repeat with its own record', async () => {
      const acmeNumber = await trackingNumber('static');
      const betaNumber = await trackingNumber('static', betaId);
      const acmeCall = call(acmeNumber, { call_id: 'shared-call-1', duration: 60 });
      const betaCall = call(betaNumber, { call_id: 'shared-call-1', duration: 30 });

      const acme = await post(acmeCall);
      expect(acme.status).toBe(201);
      const beta = await post(betaCall);
      expect(beta.status).toBe(201);
      const [acmeRecord] = acme.body.cdrs as Body[];
      const [betaRecord] = beta.body.cdrs as Body[];
      expect(betaRecord).toMatchObject({ call_id: 'shared-call-1', bnum: betaNumber, duration: '30' });
      expect(betaRecord!.cdr_id).not.toBe(acmeRecord!.cdr_id);
      expect(
        await dataSource.query(
          `SELECT partner_id::text AS partner, bnum, duration FROM cdrs WHERE call_id = 'shared-call-1'
            ORDER BY id`,
        ),
      ).toEqual([
        { partner: partnerId, bnum: acmeNumber, duration: 60 },
        { partner: betaId, bnum: betaNumber, duration: 30 },
      ]);

      // A repeat (changed or not) answers the partner's stored record, alone or in a batch.
      const again = await post({ ...betaCall, duration: 45 });
      expect(again).toEqual({ status: 200, body: { cdrs: [betaRecord] } });
      const both = await post([acmeCall, betaCall]);
      expect(both).toEqual({ status: 200, body: { cdrs: [acmeRecord, betaRecord], errors: [] } });
      const [{ count }] = await dataSource.query(
        `SELECT count(*)::int AS count FROM cdrs WHERE call_id = 'shared-call-1'`,
      );
      expect(count).toBe(2);
    });
  });

  // docs/webhooks.md, "When an event is queued": the batch reads the partner's subscriptions once.
  describe('webhook events', () => {
    async function deliveryTypes(): Promise<string[]> {
      const rows: Array<{ event_type: string }> = await dataSource.query(
        'SELECT event_type FROM webhook_deliveries WHERE partner_id = $1 ORDER BY id',
        [partnerId],
      );
      return rows.map((row) => row.event_type);
    }

    it('queues nothing, not even a statement, for a partner without an active webhook', async () => {
      const webhooks = new TypeormWebhooksStore(dataSource.manager);
      const paused = await webhooks.insert(partnerId, {
        url: 'https://hooks.example.com/paused',
        events: ['call.completed'],
        state: '1',
        secret: 'whsec_cGF1c2VkLXNlY3JldC0wMTIzNDU2Nzg5',
      });
      const destnr = (await trackingNumber('static')) as string;
      await dataSource.query(
        `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
         VALUES ($1, $2, 'Paused hooks', '+4722000101', $3, now())`,
        [partnerId, await customer('HOOK-1'), destnr],
      );
      const statements = await deliveryStatements();
      expect((await post([call(destnr)])).status).toBe(200);
      expect(await deliveryStatements()).toBe(statements);
      expect(await deliveryTypes()).toEqual([]);
      // Nothing queued, so this process's workers are not woken either.
      expect(rung).toEqual([]);

      await webhooks.update(partnerId, paused.id, { state: '0' });
      expect((await post([call(destnr, { answered: 0, duration: 0 })])).status).toBe(200);
      // Only what the webhook subscribed to: call.completed, not call.missed.
      expect(await deliveryStatements()).toBe(statements + 1);
      expect(await deliveryTypes()).toEqual(['call.completed']);
      // Rung once the call's transaction committed: the webhook worker, not the others.
      expect(rung).toEqual(['webhooks']);
      await webhooks.delete(partnerId, paused.id);
    });

    it('keeps to the webhooks of the moment for a partner known to have webhooks, unread', async () => {
      const webhooks = new TypeormWebhooksStore(dataSource.manager);
      const completed = await webhooks.insert(partnerId, {
        url: 'https://hooks.example.com/completed',
        events: ['call.completed'],
        state: '0',
        secret: 'whsec_Y29tcGxldGVkLXNlY3JldC0wMTIzNDU2Nzg5',
      });
      const destnr = (await trackingNumber('static')) as string;
      await dataSource.query(
        `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
         VALUES ($1, $2, 'Known hooks', '+4722000102', $3, now())`,
        [partnerId, await customer('HOOK-2'), destnr],
      );
      // The first batch reads the partner's webhooks; the later ones, within the minute, do not.
      expect((await post([call(destnr)])).status).toBe(200);
      expect(await deliveryTypes()).toEqual(['call.completed']);

      // Paused since: the outbox statement finds no active webhook and writes nothing.
      await webhooks.update(partnerId, completed.id, { state: '1' });
      expect((await post([call(destnr)])).status).toBe(200);
      expect(await deliveryTypes()).toEqual(['call.completed']);

      // A webhook for another event, created since: it gets the very next call's event.
      await webhooks.update(partnerId, completed.id, { state: '0' });
      const missed = await webhooks.insert(partnerId, {
        url: 'https://hooks.example.com/missed',
        events: ['call.missed'],
        state: '0',
        secret: 'whsec_bWlzc2VkLXNlY3JldC0wMTIzNDU2Nzg5MDEy',
      });
      expect((await post([call(destnr, { answered: 0, duration: 0 })])).status).toBe(200);
      expect(await deliveryTypes()).toEqual(['call.completed', 'call.completed', 'call.missed']);
      await webhooks.delete(partnerId, completed.id);
      await webhooks.delete(partnerId, missed.id);
    });
  });
});
