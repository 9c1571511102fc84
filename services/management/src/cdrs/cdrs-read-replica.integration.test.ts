import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { DigestClient } from '../test-support/digest-client';
import { rawRequest } from '../test-support/https-request';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const PASSWORD = 'replica test password';
const TOKEN = 'switch-token-replica-0123456789';

type Listing = { cdrs: Array<Record<string, string | null>>; total: number };

// DATABASE_READ_URL: statistics pages read the replica, ingestion and the customer lookup the
// primary. A second test database stands in for the replica; rows written only there (or only on
// the primary) show which side a request read.
describe('read replica for CDR statistics', () => {
  let stores: TestStores;
  let replicaDatabase: TestDatabase;
  let replica: DataSource;
  let service: RunningService;
  let client: DigestClient;
  let partnerId: string;
  let customerId: string;

  beforeAll(async () => {
    stores = await createTestStores();
    replicaDatabase = await createTestDatabase();
    replica = createManagementDataSource(replicaDatabase.url);
    await replica.initialize();
    const partner = await createDigestPartner(stores, 'acme', PASSWORD, ['127.0.0.1']);
    partnerId = String(partner.id);
    [{ id: customerId }] = await stores.dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id::text AS id`,
      [partnerId],
    );
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, '+4740000001', 'static', now())`,
      [partnerId],
    );
    await stores.dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
       VALUES ($1, $2, 'Front', '+4722334455', '+4740000001', now())`,
      [partnerId, customerId],
    );
    // The replica's copy of the partner (the records' foreign key) and two records the primary lacks.
    // Plain SQL: replication copies the row with its id, which no store writes (GENERATED ALWAYS).
    await replica.query(
      `INSERT INTO partners (id, name, digest_username, ha1_md5, ha1_sha256, signing_secret)
       OVERRIDING SYSTEM VALUE VALUES ($1, 'acme', 'acme-api', 'x', 'y', 'sixteen-chars-ok')`,
      [partnerId],
    );
    for (const [callId, start] of [
      ['replica-1', '2026-03-01T09:00:00Z'],
      ['replica-2', '2026-03-02T09:00:00Z'],
    ])
      await replica.query(
        `INSERT INTO cdrs (call_id, partner_id, customer_id, custnr, start, duration, anum, bnum, answered,
           voicemail, quarantined, timestamp)
         VALUES ($1, $2, $3, 'K-1', $4, 60, '+4798765432', '+4740000001', true, false, false, now())`,
        [callId, partnerId, customerId, start],
      );
    service = await startTestService(
      testConfig(stores, { DATABASE_READ_URL: replicaDatabase.url, TELEPHONY_TOKEN: TOKEN }),
    );
    client = new DigestClient(service.port, 'acme-api', PASSWORD);
  });

  afterAll(async () => {
    await service?.close();
    if (replica?.isInitialized) await replica.destroy();
    await replicaDatabase?.drop();
    await stores?.release();
  });

  async function list(query: string): Promise<{ status: number; body: Listing }> {
    const result = await client.request({ method: 'GET', path: `/statistics/cdrs?${query}` });
    return { status: result.status, body: result.json() as Listing };
  }

  async function ingest(callId: string): Promise<number> {
    const result = await rawRequest({
      port: service.port,
      method: 'POST',
      path: '/telephony/cdrs',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        call_id: callId,
        anum: '+4798765000',
        bnum: '+4740000001',
        start: '2026-03-03 10:00:00',
        duration: 45,
        answered: 1,
      }),
    });
    return result.status;
  }

  async function callIds(source: DataSource): Promise<string[]> {
    const rows: Array<{ call_id: string }> = await source.query(`SELECT call_id FROM cdrs ORDER BY call_id`);
    return rows.map((row) => row.call_id);
  }

  it('lists the records and total the replica holds', async () => {
    const { status, body } = await list(`customer_id=${customerId}`);
    expect(status).toBe(200);
    expect(body.total).toBe(2);
    expect(body.cdrs.map((cdr) => cdr.start)).toEqual(['2026-03-01 09:00:00', '2026-03-02 09:00:00']);
  });

  it('ingests on the primary, idempotently, whatever the replica has not yet received', async () => {
    expect(await ingest('primary-1')).toBe(201);
    expect(await callIds(stores.dataSource)).toEqual(['primary-1']);
    expect(await callIds(replica)).toEqual(['replica-1', 'replica-2']);
    // The retry is recognised on the primary although the replica lacks the call.
    expect(await ingest('primary-1')).toBe(200);
    expect(await callIds(stores.dataSource)).toEqual(['primary-1']);
    // Until replication brings it, the new record is not listed.
    expect((await list(`customer_id=${customerId}`)).body.total).toBe(2);
  });

  it('finds a customer that exists on the primary only, with no records yet instead of 404', async () => {
    await stores.dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Ola', 'K-2')`,
      [partnerId],
    );
    expect(await list('custnr=K-2')).toEqual({ status: 200, body: expect.objectContaining({ total: 0 }) });
    expect((await list('custnr=K-3')).status).toBe(404);
  });

  it('reports the replica on /ready, and 503 once it stops answering', async () => {
    const ready = await rawRequest({ port: service.port, method: 'GET', path: '/ready' });
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'ok', postgres_replica: 'ok' },
    });
    await replica.destroy();
    await replicaDatabase.drop();
    const down = await rawRequest({ port: service.port, method: 'GET', path: '/ready' });
    expect(down.status).toBe(503);
    expect(down.json()).toEqual({
      status: 'unavailable',
      checks: { postgres: 'ok', redis: 'ok', postgres_replica: 'unreachable' },
    });
  });
});
