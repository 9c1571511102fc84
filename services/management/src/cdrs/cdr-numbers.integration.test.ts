import { encodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { TypeormPartnersStore } from '../partners/partners.store';
import { startRouteApp, type RouteApp } from '../test-support/route-calls';
import { insertTestPartners } from '../test-support/test-partners';
import { composeCdrFeature } from '../composition/cdrs-composition';

const TOKEN = 'switch-token-0123456789';
const TRACKING = '+4791100001';
const SWEDISH_TRACKING = '+46812300001';

type Body = Record<string, unknown>;

// The numbers of a call record as every edge reads them (docs/switch.md, "Numbers"): the spellings
// replacement routes a call by are the spellings its record is stored by, in one form.
describe('call record numbers', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let testRedis: TestRedis;
  let redis: Redis;
  let server: RouteApp;
  let callCounter = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    const feature = composeCdrFeature({
      dataSource,
      redis,
      keyPrefix: testRedis.keyPrefix,
      telephonyToken: TOKEN,
      metrics: { cdrIngested: () => undefined, cdrBatch: () => undefined },
    });
    server = await startRouteApp(feature.switchRoutes, { clock: () => new Date('2026-04-01T12:00:00Z') });
    const [acme, sverige] = (await insertTestPartners(dataSource.manager, 'acme', 'sverige')) as [
      string,
      string,
    ];
    await new TypeormPartnersStore(dataSource.manager).update(sverige, { country: 'SE' });
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at)
       VALUES ($1, $2, 'pool', now()), ($3, $4, 'pool', now())`,
      [acme, TRACKING, sverige, SWEDISH_TRACKING],
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
    const response = await fetch(`${server.base}/telephony/cdrs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Body };
  }

  function call(fields: Body): Body {
    callCounter += 1;
    return {
      call_id: `numbers-${callCounter}`,
      start: '2026-03-02 09:00:00',
      duration: 60,
      answered: 1,
      ...fields,
    };
  }

  async function stored(callId: unknown): Promise<Row> {
    const [row] = (await dataSource.query(
      `SELECT anum, bnum, cnum, anum_ndc_name, session_id FROM cdrs WHERE call_id = $1`,
      [callId],
    )) as Row[];
    return row!;
  }

  it('stores bnum, anum and cnum in one form whatever spelling the switch sent', async () => {
    const spellings: Array<[string, string, string | undefined, Row]> = [
      ['004791100001', '91234567', '22 33 44 55', { anum: '+4791234567', cnum: '+4722334455' }],
      ['4791100001', '004791234567', '0047 22334455', { anum: '+4791234567', cnum: '+4722334455' }],
      ['+47 911 00001', '+47 912 34 567', undefined, { anum: '+4791234567', cnum: null }],
      ['+4791100001 ', '4791234567', '', { anum: '+4791234567', cnum: null }],
      [TRACKING, 'Restricted', 'anonymous', { anum: 'anonymous', cnum: 'anonymous' }],
      [TRACKING, '', undefined, { anum: 'anonymous', cnum: null }],
      [TRACKING, '1881', undefined, { anum: '1881', cnum: null }],
    ];
    for (const [bnum, anum, cnum, expected] of spellings) {
      const record = call({ bnum, anum, ...(cnum === undefined ? {} : { cnum }) });
      expect((await post(record)).status).toBe(201);
      expect(await stored(record.call_id)).toMatchObject({ bnum: TRACKING, ...expected });
    }
    // The number's type is known once the caller is E.164, whatever the switch wrote.
    const national = call({ bnum: TRACKING, anum: '91234567' });
    await post(national);
    expect((await stored(national.call_id)).anum_ndc_name).toBe('mobile');
  });

  it('reads the caller in the country of the partner the tracking number belongs to', async () => {
    const record = call({ bnum: '0046 8 123 000 01', anum: '08-123 456 78' });
    expect((await post(record)).status).toBe(201);
    expect(await stored(record.call_id)).toMatchObject({ bnum: SWEDISH_TRACKING, anum: '+46812345678' });
  });

  it('joins the attribution replacement stored under the same forms', async () => {
    const record = call({ bnum: '004791100001', anum: '912 34 567' });
    const attribution: CallAttribution = {
      callId: record.call_id as string,
      advId: 'acme',
      anum: '+4791234567',
      bnum: TRACKING,
      at: '2026-03-02T09:00:00.000Z',
      action: 'dial',
      target: '+4722334455',
      sourceId: null,
      customerId: null,
      vmGreetingId: null,
      sessionId: 'session-numbers',
      trackingId: null,
      fullUrl: null,
      fullReferrer: null,
      custnr: null,
      parameters: null,
      quarantined: false,
      kind: null,
      boundAt: null,
    };
    await redis.set(
      partnerKeys(testRedis.keyPrefix, 'acme').call(attribution.callId),
      encodeCallAttribution(attribution),
    );
    expect((await post(record)).status).toBe(201);
    expect(await stored(record.call_id)).toMatchObject({ bnum: TRACKING, session_id: 'session-numbers' });
  });

  it('refuses a bnum that is no number, with the rule replacement words', async () => {
    for (const bnum of ['91100001', '+4791100001x', 'anonymous']) {
      const record = call({ bnum, anum: '91234567' });
      expect(await post(record)).toEqual({
        status: 400,
        body: { error: { status: 400, message: 'bnum: must be a phone number' } },
      });
    }
  });
});

type Row = Record<string, unknown>;
