import { encodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { composeCdrFeature } from '../composition/cdrs-composition';
import { createManagementDataSource } from '../composition/management-data-source';
import type { AuthenticatedPartner, RouteDefinition } from '../http/route-definition';
import type { CdrBatchPath } from './cdr-ingest-metrics';
import { startRouteApp, type RouteApp } from '../test-support/route-calls';
import { insertTestPartners } from '../test-support/test-partners';

const TOKEN = 'switch-token-0123456789';
const STORED_AT = new Date('2026-04-01T12:00:00Z');
const WEEKDAYS_8_TO_16 = { from_time: '08:00', to_time: '16:00', weekdays: 'mon,tue,wed,thu,fri' };

type Body = Record<string, unknown>;

/** How each batch of this file's requests was stored (trackline_cdr_batches_total). */
const batches: CdrBatchPath[] = [];

// Ingestion through POST /telephony/cdrs on real Postgres and Redis, then GET /statistics/cdrs.
describe('call records', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let testRedis: TestRedis;
  let redis: Redis;
  let server: RouteApp;
  let base: string;
  let listRoute: RouteDefinition;
  let partner: AuthenticatedPartner;
  let customerId: string;
  let numberCounter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    // The feature as the service builds it; counting is cdrs/counted-ingestion's, not this test's.
    const cdrs = composeCdrFeature({
      dataSource,
      redis,
      keyPrefix: testRedis.keyPrefix,
      telephonyToken: TOKEN,
      metrics: { cdrIngested: () => undefined, cdrBatch: (path) => void batches.push(path) },
    });
    listRoute = cdrs.routes[0]!;
    // The switch's endpoint through the real route registration and error mapper.
    server = await startRouteApp([...cdrs.switchRoutes], { clock: () => STORED_AT });
    base = server.base;

    const [partnerId] = await insertTestPartners(dataSource.manager, 'acme');
    partner = {
      id: partnerId,
      name: 'acme',
      country: 'NO',
      timeZone: 'Europe/Oslo',
      showFullAnum: false,
      customFields: { customer: [], source: [] },
    };
    [{ id: customerId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id::text AS id`,
      [partnerId],
    );
  });

  afterAll(async () => {
    await server.close();
    redis.disconnect();
    await testRedis.cleanup();
    await dataSource.destroy();
    await database.drop();
  });

  async function post(body: unknown): Promise<{ status: number; body: Body }> {
    const response = await fetch(`${base}/telephony/cdrs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Body };
  }

  /** The notifications the record's transaction wrote, in the order it wrote them. */
  function outboxRows(callId: unknown): Promise<Body[]> {
    return dataSource.query(
      `SELECT o.channel, o.kind, o.recipient FROM notification_outbox o
         JOIN cdrs c ON c.id = o.cdr_id
        WHERE c.call_id = $1
        ORDER BY o.id`,
      [callId],
    );
  }

  async function commissionOf(call: Body): Promise<string | null> {
    const answer = await post(call);
    expect(answer.status).toBe(201);
    return (answer.body.cdrs as Body[])[0]!.commission as string | null;
  }

  async function pricingModel(uniqueCallerTime: number, conditions: Body[]): Promise<string> {
    const [{ id }] = await dataSource.query(
      `INSERT INTO pricing_models (partner_id, name, type, unique_caller_time, conditions)
       VALUES ($1, 'CPL', '0', $2, $3) RETURNING id`,
      [partner.id, uniqueCallerTime, JSON.stringify(conditions)],
    );
    return id as string;
  }

  async function campaign(pricingModelId: string, state = '0'): Promise<string> {
    const [{ id }] = await dataSource.query(
      `INSERT INTO campaigns (partner_id, customer_id, pricing_model_id, name, state)
       VALUES ($1, $2, $3, 'Spring', $4) RETURNING id::text AS id`,
      [partner.id, customerId, pricingModelId, state],
    );
    return id as string;
  }

  async function trackingNumber(kind: 'static' | 'pool', heldUntil: Date | null = null): Promise<string> {
    numberCounter += 1;
    const e164 = `+4740${String(numberCounter).padStart(6, '0')}`;
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at, held_until) VALUES ($1, $2, $3, now(), $4)`,
      [partner.id, e164, kind, heldUntil],
    );
    return e164;
  }

  async function source(destnr: string, fields: Body = {}): Promise<string> {
    const values = {
      campaign_id: null,
      status: 'active',
      closed_at: null,
      media: 'print',
      publisher_id: 'pub-7',
      class: 'premium',
      email: null,
      smsnumber: null,
      notify_on_missed_call: false,
      phonenr: '+4722334455',
      ...fields,
    };
    const [{ id }] = await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, media, phonenr, destnr, campaign_id, publisher_id,
         email, smsnumber, status, class, activated_at, closed_at, notify_on_missed_call)
       VALUES ($1, $2, 'Front page', $3, $4, $5, $6, $7, $8, $9, $10, $11, '2026-01-01T00:00:00Z', $12, $13)
       RETURNING id::text AS id`,
      [
        partner.id,
        customerId,
        values.media,
        values.phonenr,
        destnr,
        values.campaign_id,
        values.publisher_id,
        values.email,
        values.smsnumber,
        values.status,
        values.class,
        values.closed_at,
        values.notify_on_missed_call,
      ],
    );
    return id as string;
  }

  /** A static number on a source of a fresh campaign priced 25.00 for calls over 30 s, weekdays 08–16. */
  async function pricedNumber(options: { uniqueCallerTime?: number; state?: string } = {}): Promise<string> {
    const model = await pricingModel(options.uniqueCallerTime ?? 0, [
      { cost_per_lead: '25.00', min_duration: '30', ...WEEKDAYS_8_TO_16 },
      { cost_per_lead: '5.50', min_duration: '0', from_time: '00:00', to_time: '24:00', weekdays: 'sat,sun' },
    ]);
    const destnr = await trackingNumber('static');
    await source(destnr, { campaign_id: await campaign(model, options.state) });
    return destnr;
  }

  let callCounter = 0;
  function call(bnum: string, fields: Body = {}): Body {
    callCounter += 1;
    return {
      call_id: `call-${callCounter}`,
      anum: '+4791234567',
      bnum,
      start: '2026-03-02 09:00:00',
      duration: 60,
      answered: 1,
      ...fields,
    };
  }

  describe('commission', () => {
    it('pays only over min_duration', async () => {
      const bnum = await pricedNumber();
      expect(await commissionOf(call(bnum, { duration: 30 }))).toBeNull();
      expect(await commissionOf(call(bnum, { duration: '31' }))).toBe('25.00');
    });

    it('pays from the window’s first minute through its last, in Oslo time', async () => {
      const bnum = await pricedNumber();
      // 2026-03-02 is a Monday; Oslo is UTC+1 in winter.
      expect(await commissionOf(call(bnum, { start: '2026-03-02 06:59:59' }))).toBeNull();
      expect(await commissionOf(call(bnum, { start: '2026-03-02 07:00:00' }))).toBe('25.00');
      expect(await commissionOf(call(bnum, { start: '2026-03-02T15:59:59+01:00' }))).toBe('25.00');
      expect(await commissionOf(call(bnum, { start: '2026-03-02 15:00:00' }))).toBeNull();
      // Sunday: the second condition.
      expect(await commissionOf(call(bnum, { start: '2026-03-01 12:00:00', duration: 1 }))).toBe('5.50');
    });

    it('follows Oslo across the daylight-saving change', async () => {
      const bnum = await pricedNumber();
      // Friday before the change (UTC+1): 06:30Z is 07:30 local. Monday after (UTC+2): 08:30 local.
      expect(await commissionOf(call(bnum, { start: '2026-03-27 06:30:00' }))).toBeNull();
      expect(await commissionOf(call(bnum, { start: '2026-03-30 06:30:00' }))).toBe('25.00');
      expect(await commissionOf(call(bnum, { start: '2026-03-30 13:59:59' }))).toBe('25.00');
      expect(await commissionOf(call(bnum, { start: '2026-03-30 14:00:00' }))).toBeNull();
    });

    it('pays a repeat caller again only after unique_caller_time', async () => {
      const bnum = await pricedNumber({ uniqueCallerTime: 3600 });
      expect(await commissionOf(call(bnum, { start: '2026-03-02 08:00:00' }))).toBe('25.00');
      expect(await commissionOf(call(bnum, { start: '2026-03-02 08:59:59' }))).toBeNull();
      expect(await commissionOf(call(bnum, { start: '2026-03-02 08:30:00', anum: '+4798765432' }))).toBe(
        '25.00',
      );
      expect(await commissionOf(call(bnum, { start: '2026-03-02 09:00:00' }))).toBe('25.00');
      // Out of order: a lead stored first still shadows an earlier call within the time.
      const late = { anum: '+4790000001' };
      expect(await commissionOf(call(bnum, { ...late, start: '2026-03-02 11:00:00' }))).toBe('25.00');
      expect(await commissionOf(call(bnum, { ...late, start: '2026-03-02 10:30:00' }))).toBeNull();
    });

    it('lets only one of two concurrent calls from one caller earn', async () => {
      const bnum = await pricedNumber({ uniqueCallerTime: 3600 });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          post(call(bnum, { anum: '+4791111111', start: `2026-03-02 10:00:0${i}` })),
        ),
      );
      const commissions = answers.map((answer) => (answer.body.cdrs as Body[])[0]!.commission);
      expect(commissions.filter((commission) => commission === '25.00')).toHaveLength(1);
      expect(commissions.filter((commission) => commission === null)).toHaveLength(7);
    });

    it('prices a batch’s calls in their order, as if each were posted alone (docs/cdrs.md, "Batches")', async () => {
      const bnum = await pricedNumber({ uniqueCallerTime: 3600 });
      const repeat = { anum: '+4792222222' };
      await commissionOf(call(bnum, { ...repeat, start: '2026-03-02 12:00:00' }));
      const batch = [
        call(bnum, { ...repeat, start: '2026-03-02 09:00:00' }),
        call(bnum, { ...repeat, start: '2026-03-02 09:59:00' }),
        call(bnum, { ...repeat, start: '2026-03-02 11:30:00' }),
        call(bnum, { ...repeat, start: '2026-03-02 08:30:00', duration: 10 }),
        call(bnum, { ...repeat, start: '2026-03-02 07:30:00' }),
        call(bnum, { anum: '+4793333333', start: '2026-03-02 09:00:00' }),
      ];
      const answer = await post(batch);
      expect(answer.status).toBe(200);
      // The first earns; 09:59 is within the hour of it, 11:30 within the stored 12:00 lead; the short
      // call earns nothing, so 07:30 is an hour and a half from the nearest lead; another caller earns.
      expect((answer.body.cdrs as Body[]).map((cdr) => cdr.commission)).toEqual([
        '25.00',
        null,
        null,
        null,
        '25.00',
        '25.00',
      ]);
    });

    it('stores concurrent batches of shared callers and one customer whole, one lead per caller and hour', async () => {
      const bnum = await pricedNumber({ uniqueCallerTime: 3600 });
      const callers = Array.from({ length: 5 }, (_, i) => `+479444444${i}`);
      const sent = Array.from({ length: 4 }, (_, b) =>
        Array.from({ length: 60 }, (_, i) => {
          const minute = (b * 61 + i * 37) % 480;
          const at = new Date(Date.UTC(2026, 2, 3, 7, minute, i % 60));
          return call(bnum, {
            anum: callers[(b + i) % callers.length],
            start: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          });
        }),
      );
      batches.length = 0;
      const answers = await Promise.all(sent.map((batch) => post(batch)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      // Each batch in its one transaction: a batch that failed (a deadlock among them) would have
      // been stored record by record, and the answers alone would not tell.
      expect(batches).toEqual(['one_transaction', 'one_transaction', 'one_transaction', 'one_transaction']);
      const leads: Array<{ anum: string; start: Date }> = await dataSource.query(
        `SELECT anum, start FROM cdrs WHERE bnum = $1 AND commission IS NOT NULL ORDER BY anum, start`,
        [bnum],
      );
      const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM cdrs WHERE bnum = $1', [
        bnum,
      ]);
      expect(count).toBe(240);
      expect(leads.length).toBeGreaterThanOrEqual(callers.length);
      for (const [i, lead] of leads.entries()) {
        const before = leads[i - 1];
        if (before?.anum === lead.anum)
          expect(lead.start.getTime() - before.start.getTime()).toBeGreaterThanOrEqual(3_600_000);
      }
    });

    it('stores a batch posted twice at once one time, and answers both with the same records', async () => {
      const bnum = await pricedNumber();
      const batch = Array.from({ length: 40 }, (_, i) =>
        call(bnum, { anum: `+47955${String(i).padStart(5, '0')}` }),
      );
      const [first, second] = await Promise.all([post(batch), post(batch)]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const ids = (answer: { body: Body }) => (answer.body.cdrs as Body[]).map((cdr) => cdr.id);
      expect(ids(second)).toEqual(ids(first));
      const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM cdrs WHERE bnum = $1', [
        bnum,
      ]);
      expect(count).toBe(40);
    });

    it('pays nothing on a paused campaign or an unanswered call, and still names the campaign', async () => {
      const paused = await pricedNumber({ state: '1' });
      const answer = await post(call(paused));
      expect((answer.body.cdrs as Body[])[0]).toMatchObject({
        commission: null,
        campaign_id: expect.any(String),
      });
      expect(await commissionOf(call(await pricedNumber(), { answered: '0' }))).toBeNull();
    });
  });

  describe('POST /telephony/cdrs', () => {
    it('stores a record with the source’s fields and answers a repeat with it unchanged', async () => {
      const destnr = await trackingNumber('static');
      const sourceId = await source(destnr);
      const first = call(destnr, {
        cnum: '+4722334455',
        voicemail: '0',
        recording: Buffer.from('RIFF').toString('base64'),
      });
      const created = await post(first);
      expect(created.status).toBe(201);
      const record = (created.body.cdrs as Body[])[0]!;
      expect(record).toMatchObject({
        call_id: first.call_id,
        start: '2026-03-02 09:00:00',
        duration: '60',
        anum: '+4791234567',
        bnum: destnr,
        cnum: '+4722334455',
        customer_id: customerId,
        source_id: sourceId,
        custnr: 'K-1',
        answered: '1',
        anum_ndc_name: 'mobile',
        quarantined: '0',
        timestamp: '2026-04-01 12:00:00',
        media: 'print',
        class: 'premium',
        publisher_id: 'pub-7',
        campaign_id: null,
        commission: null,
        cli_id: null,
        order_id: null,
        session_id: null,
      });
      const repeat = await post({ ...first, duration: 999 });
      expect(repeat).toEqual({ status: 200, body: created.body });
      const rows = await dataSource.query(`SELECT length(recording) AS bytes FROM cdrs WHERE call_id = $1`, [
        first.call_id,
      ]);
      expect(rows).toEqual([{ bytes: 4 }]);
    });

    it('answers 400 naming the field, 404 for a number that is not ours, 401 without the token', async () => {
      const bnum = await trackingNumber('static');
      expect(await post(call(bnum, { start: '02.03.2026' }))).toEqual({
        status: 400,
        body: { error: { status: 400, message: expect.stringMatching(/^start: /) } },
      });
      expect((await post(call(bnum, { answered: 'yes' }))).body).toEqual({
        error: { status: 400, message: 'answered: must be 0 or 1 (number or string)' },
      });
      expect((await post(call('+4799999999'))).status).toBe(404);
      expect((await post([])).status).toBe(400);
      const unauthenticated = await fetch(`${base}/telephony/cdrs`, { method: 'POST', body: '{}' });
      expect(unauthenticated.status).toBe(401);
    });

    it('stores the good records of a batch and names the bad ones', async () => {
      const bnum = await trackingNumber('static');
      await source(bnum);
      const good = [call(bnum), call(bnum)];
      const answer = await post([good[0], { ...call(bnum), duration: -1 }, good[1], call('+4799999998')]);
      expect(answer.status).toBe(207);
      expect((answer.body.cdrs as Body[]).map((record) => record.call_id)).toEqual(
        good.map((c) => c.call_id),
      );
      expect(answer.body.errors).toEqual([
        {
          index: '1',
          call_id: expect.any(String),
          status: '400',
          message: expect.stringMatching(/^duration: /),
        },
        {
          index: '3',
          call_id: expect.any(String),
          status: '404',
          message: expect.stringContaining('+4799999998'),
        },
      ]);
      const again = await post(good);
      expect(again.status).toBe(200);
      expect(again.body.errors).toEqual([]);
    });

    it('joins the pool call’s attribution and marks a held-back number quarantined', async () => {
      const pool = await trackingNumber('pool');
      const sourceId = await source(await trackingNumber('static'), { phonenr: '+4723000001' });
      const routed = call(pool);
      const attribution: CallAttribution = {
        callId: routed.call_id as string,
        advId: 'acme',
        anum: '+4791234567',
        bnum: pool,
        at: '2026-03-02T09:00:00.000Z',
        action: 'dial',
        target: '+4723000001',
        sourceId,
        customerId,
        vmGreetingId: null,
        sessionId: 'session-1',
        trackingId: 'tracking-1',
        fullUrl: 'https://example.no/?utm=x',
        fullReferrer: 'https://search.example/',
        custnr: null,
        parameters: { utm: 'x' },
        quarantined: true,
        kind: 'after_session',
        boundAt: Date.parse('2026-03-02T08:20:00.000Z'),
      };
      await redis.set(
        partnerKeys(testRedis.keyPrefix, 'acme').call(attribution.callId),
        encodeCallAttribution(attribution),
      );
      expect((await post(routed)).body.cdrs).toEqual([
        expect.objectContaining({
          source_id: sourceId,
          customer_id: customerId,
          quarantined: '1',
          session_id: 'session-1',
          tracking_id: 'tracking-1',
          full_url: 'https://example.no/?utm=x',
          full_referrer: 'https://search.example/',
          parameters: { utm: 'x' },
        }),
      ]);

      const held = await trackingNumber('static', new Date('2026-04-01T00:00:00Z'));
      const closedId = await source(held, { status: 'closed', closed_at: '2026-03-01T00:00:00Z' });
      expect((await post(call(held))).body.cdrs).toEqual([
        expect.objectContaining({ source_id: closedId, quarantined: '1' }),
      ]);
    });

    it('writes notifications in the record’s transaction', async () => {
      const destnr = await trackingNumber('static');
      await source(destnr, {
        notify_on_missed_call: true,
        email: 'kari@example.no',
        smsnumber: '+4791000000',
      });
      const missed = call(destnr, { answered: 0, duration: 0 });
      expect((await post(missed)).status).toBe(201);
      expect(await outboxRows(missed.call_id)).toEqual([
        { channel: 'email', kind: 'missed_call', recipient: 'kari@example.no' },
        { channel: 'sms', kind: 'missed_call', recipient: '+4791000000' },
      ]);
      // The outbox refuses every new row: the record's transaction is rolled back with it.
      await dataSource.query(
        `ALTER TABLE notification_outbox ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`,
      );
      const lost = call(destnr, { answered: 0, duration: 0 });
      try {
        expect((await post(lost)).status).toBe(500);
      } finally {
        await dataSource.query(`ALTER TABLE notification_outbox DROP CONSTRAINT refuse_all`);
      }
      expect(await dataSource.query(`SELECT id FROM cdrs WHERE call_id = $1`, [lost.call_id])).toEqual([]);
    });
  });

  describe('GET /statistics/cdrs', () => {
    const handle = (...args: Parameters<RouteDefinition['handle']>) => listRoute.handle(...args);
    let otherCustomerId: string;

    beforeAll(async () => {
      [{ id: otherCustomerId }] = await dataSource.query(
        `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Ola', 'O-1') RETURNING id::text AS id`,
        [partner.id],
      );
      const destnr = await trackingNumber('static');
      await dataSource.query(
        `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
        VALUES ($1, $2, 'Ola', '+4722000001', $3, now())`,
        [partner.id, otherCustomerId, destnr],
      );
      // Oslo days: 2026-05-10 local runs from 2026-05-09T22:00Z to 2026-05-10T22:00Z.
      const starts = [
        '2026-05-09 21:59:59',
        '2026-05-09 22:00:00',
        '2026-05-10 12:00:00',
        '2026-05-10 21:59:59',
        '2026-05-10 22:00:00',
      ];
      const answer = await post(
        starts.reverse().map((start) => call(destnr, { start, anum: '+4791234567' })),
      );
      expect(answer.status).toBe(200);
    });

    function list(query: Record<string, string>, showFullAnum = false) {
      return handle({
        partner: { ...partner, showFullAnum },
        params: {},
        query,
        body: {},
        headers: {},
        now: STORED_AT,
        log: createLogger({ service: 'test', level: 'silent' }),
      });
    }

    it('lists one Oslo day, ordered by start, with the caller masked', async () => {
      const page = await list({ custnr: 'O-1', from_date: '2026-05-10', to_date: '2026-05-11' });
      expect(page).toMatchObject({ kind: 'paged', total: 3, page: 0, pageSize: 1000 });
      if (page.kind !== 'paged') throw new Error('not paged');
      expect(page.records.map((record) => record.start)).toEqual([
        '2026-05-09 22:00:00',
        '2026-05-10 12:00:00',
        '2026-05-10 21:59:59',
      ]);
      expect(Object.keys(page.records[0]!)).toEqual([
        'cdr_id',
        'start',
        'duration',
        'anum',
        'bnum',
        'cnum',
        'customer_id',
        'source_id',
        'custnr',
        'answered',
        'anum_ndc_name',
      ]);
      expect(page.records[0]!.anum).toBe('+4791234xxx');
    });

    it('pages, shows the caller whole when allowed, and adds the extended fields', async () => {
      const second = await list(
        { customer_id: otherCustomerId, pagesize: '2', page: '1', extended: '1' },
        true,
      );
      expect(second).toMatchObject({ total: 5, page: 1, pageSize: 2 });
      if (second.kind !== 'paged') throw new Error('not paged');
      expect(second.records.map((record) => record.start)).toEqual([
        '2026-05-10 12:00:00',
        '2026-05-10 21:59:59',
      ]);
      expect(second.records[0]).toMatchObject({ anum: '+4791234567', quarantined: '0', commission: null });
      expect(Object.keys(second.records[0]!).slice(11)).toEqual([
        'quarantined',
        'timestamp',
        'expire',
        'media',
        'class',
        'voicemail',
        'publisher_id',
        'campaign_id',
        'pricing_model_id',
        'commission',
        'cli_id',
        'order_id',
        'session_id',
        'tracking_id',
        'full_url',
        'full_referrer',
        'parameters',
        'attribution',
        'bound_seconds',
        'gclid',
        'gbraid',
        'wbraid',
        'ga_client_id',
        'ga_session_id',
        'outcome_status',
        'outcome_value',
        'outcome_currency',
        'outcome_note',
        'outcome_modified',
        'stir_verstat',
        'spam_score',
        'spam_reasons',
        'spam',
        'transcript_status',
        'classification',
        'keywords_spotted',
      ]);
    });

    it('requires a customer and refuses bad parameters', async () => {
      await expect(list({})).rejects.toMatchObject({ status: 400 });
      await expect(list({ custnr: 'O-1', pagesize: '1001' })).rejects.toMatchObject({ status: 400 });
      await expect(list({ custnr: 'O-1', from_date: '2026-02-30' })).rejects.toMatchObject({ status: 400 });
      await expect(list({ custnr: 'nobody' })).rejects.toMatchObject({ status: 404 });
    });
  });
});
