import { cdrsStoreOn } from '../composition/stores-on-manager';
import { marketingIdsOf } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import { Ga4Simulator, GoogleAdsSimulator, freePort } from '@trackline/test-harness';
import type { GoogleAdsIntegration } from '../integrations/integration';
import { TypeormIntegrationsStore } from '../integrations/integrations.store';
import { insertTestPartners } from '../test-support/test-partners';
import { createTestStores, testConfig, type TestStores } from '../test-support/test-service';
import { TypeormConversionOutboxStore } from './conversion-outbox.store';
import { conversionOrderId } from './conversion-planner';
import { createConversionExporter } from '../composition/start-conversion-exporter';

const ACCOUNT = {
  clientId: 'client.apps.googleusercontent.com',
  clientSecret: 'client-secret',
  refreshToken: '1//refresh',
  developerToken: 'developer-token',
  managerCustomerId: '1112223333',
  customerId: '4445556666',
  conversionActionIds: ['777'],
  clickIds: ['gclid-a', 'gclid-b'],
};
const STREAM = { measurementId: 'G-RETRY1', apiSecret: 'ga4-secret' };

// The conversion outbox against the real database and the simulators: fair claims across partners,
// backoff and the attempt bound, what OAuth and an unreachable GA4 do, and rows that cannot be sent.
describe('the conversion exporter', () => {
  const clock = { now: new Date() };
  const ads = new GoogleAdsSimulator(ACCOUNT);
  // GA4 judges an event's time by its own clock: the test's.
  const ga4 = new Ga4Simulator([STREAM], () => clock.now.getTime());
  let stores: TestStores;
  let outbox: TypeormConversionOutboxStore;
  let integrations: TypeormIntegrationsStore;
  let partners: string[];

  beforeAll(async () => {
    await Promise.all([ads.start(), ga4.start()]);
    stores = await createTestStores();
    outbox = new TypeormConversionOutboxStore(stores.dataSource.manager);
    integrations = new TypeormIntegrationsStore(stores.dataSource.manager);
    partners = await insertTestPartners(stores.dataSource.manager, 'conv-a', 'conv-b');
    for (const partnerId of partners) await integrations.save(partnerId, googleAds());
  });

  afterAll(async () => {
    await stores?.release();
    await Promise.all([ads.stop(), ga4.stop()]);
  });

  function exporter(env: Record<string, string> = {}) {
    const config = testConfig(stores, {
      CONVERSIONS_GA4_URL: ga4.baseUrl,
      CONVERSIONS_GOOGLE_ADS_URL: ads.baseUrl,
      CONVERSIONS_OAUTH_TOKEN_URL: `${ads.baseUrl}/token`,
      CONVERSIONS_MAX_ATTEMPTS: '2',
      CONVERSIONS_BASE_DELAY_MS: '60000',
      CONVERSIONS_BATCH_SIZE: '10',
      ...env,
    });
    return createConversionExporter({
      dataSource: stores.dataSource,
      config,
      workerId: 'exporter-test',
      logger: createLogger({ service: 'exporter-test', level: 'silent' }),
      clock: () => clock.now,
    });
  }

  let calls = 0;
  async function storedCall(partnerId: string, parameters: Record<string, string>): Promise<string> {
    const start = new Date(clock.now.getTime() - 60_000);
    const cdr = await cdrsStoreOn(stores.dataSource.manager).insert({
      callId: `conv-${++calls}`,
      partnerId,
      customerId: null,
      custnr: null,
      sourceId: null,
      campaignId: null,
      pricingModelId: null,
      start,
      durationSeconds: 120,
      anum: '+4791234567',
      bnum: '+4722000001',
      cnum: null,
      answered: true,
      voicemail: false,
      anumNdcName: null,
      quarantined: false,
      commission: null,
      media: null,
      sourceClass: null,
      expire: null,
      publisherId: null,
      cliId: null,
      orderId: null,
      sessionId: null,
      trackingId: null,
      fullUrl: null,
      fullReferrer: null,
      parameters,
      attribution: null,
      boundSeconds: null,
      marketing: marketingIdsOf(parameters),
      stirVerstat: null,
      spamScore: 0,
      spamReasons: [],
      spam: false,
      spamMarked: null,
      recording: null,
      timestamp: start,
    });
    return cdr!.id;
  }

  async function queue(
    partnerId: string,
    cdrId: string,
    destination: 'google_ads' | 'ga4',
    occurredAt = clock.now,
  ) {
    const integration = await integrations.find(partnerId, destination);
    const record = await cdrsStoreOn(stores.dataSource.manager).findById(partnerId, cdrId);
    await outbox.enqueue(record!, [
      {
        destination,
        integrationId: integration!.id,
        orderId: conversionOrderId(cdrId, 'call'),
        outcome: null,
        occurredAt,
      },
    ]);
  }

  function googleAds(fields: Partial<GoogleAdsIntegration> = {}): GoogleAdsIntegration {
    return {
      kind: 'google_ads',
      paused: false,
      customerId: ACCOUNT.customerId,
      loginCustomerId: ACCOUNT.managerCustomerId,
      conversionActionId: '777',
      outcomeConversionActionId: null,
      callMinDuration: 60,
      outcomeStatuses: ['sale'],
      enhancedConversions: false,
      oauthClientId: ACCOUNT.clientId,
      secrets: {
        oauthClientSecret: ACCOUNT.clientSecret,
        refreshToken: ACCOUNT.refreshToken,
        developerToken: ACCOUNT.developerToken,
      },
      modified: clock.now,
      ...fields,
    };
  }

  async function settle(): Promise<void> {
    await stores.dataSource.query(
      `UPDATE conversion_outbox SET status = 'sent' WHERE status IN ('pending', 'sending')`,
    );
  }

  it('gives each partner its share of a claim, in turns', async () => {
    const [a, b] = partners as [string, string];
    for (let i = 0; i < 5; i++) await queue(a, await storedCall(a, { gclid: 'gclid-a' }), 'google_ads');
    await queue(b, await storedCall(b, { gclid: 'gclid-b' }), 'google_ads');
    // Three slots, two partners with work: one each, and one left for a partner whose work comes next.
    const claimed = await outbox.claim('w', clock.now, new Date(clock.now.getTime() + 60_000), 3);
    expect(claimed.map((row) => row.partnerId).sort()).toEqual([a, b].sort());
    await settle();
    const rows: Array<{ status: string; count: number }> = await stores.dataSource.query(
      `SELECT status, count(*)::int AS count FROM conversion_outbox GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([{ status: 'sent', count: 6 }]);
  });

  it('retries a refused OAuth exchange with backoff, and gives up after the attempt bound', async () => {
    const [a] = partners as [string];
    await integrations.save(
      a,
      googleAds({ secrets: { ...googleAds().secrets, refreshToken: '1//revoked' } }),
    );
    const cdrId = await storedCall(a, { gclid: 'gclid-a' });
    await queue(a, cdrId, 'google_ads');
    const run = exporter();
    expect(await run.runOnce()).toBe(1);
    let [row] = await outbox.forRecord(a, cdrId);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'OAuth token exchange refused: invalid_grant',
    });
    // Not due before the backoff has passed.
    expect(await run.runOnce()).toBe(0);
    clock.now = new Date(clock.now.getTime() + 61_000);
    expect(await run.runOnce()).toBe(1);
    [row] = await outbox.forRecord(a, cdrId);
    expect(row).toMatchObject({ status: 'dead', attempts: 2 });
    expect(ads.accepted).toHaveLength(0);
  });

  it('retries GA4 when it cannot be reached, and marks an event too old for GA4 dead without sending it', async () => {
    const [, b] = partners as [string, string];
    await integrations.save(b, {
      kind: 'ga4',
      paused: false,
      measurementId: STREAM.measurementId,
      secrets: { apiSecret: STREAM.apiSecret },
      modified: clock.now,
    });
    const unreachable = exporter({ CONVERSIONS_GA4_URL: `http://127.0.0.1:${await freePort()}` });
    const fresh = await storedCall(b, { ga_client_id: '1.2' });
    await queue(b, fresh, 'ga4');
    expect(await unreachable.runOnce()).toBe(1);
    expect((await outbox.forRecord(b, fresh))[0]).toMatchObject({ status: 'pending', attempts: 1 });

    const old = await storedCall(b, { ga_client_id: '1.2' });
    await queue(b, old, 'ga4', new Date(clock.now.getTime() - 73 * 3600_000));
    clock.now = new Date(clock.now.getTime() + 61_000);
    expect(await exporter().runOnce()).toBe(2);
    expect((await outbox.forRecord(b, fresh))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await outbox.forRecord(b, old))[0]).toMatchObject({
      status: 'dead',
      lastError: 'older than the 72 hours GA4 accepts',
    });
    expect(ga4.collected).toHaveLength(1);
  });

  it("keeps the record's start on its conversions, and sends one queued without it", async () => {
    const [a] = partners as [string];
    await integrations.save(a, googleAds());
    const kept = await storedCall(a, { gclid: 'gclid-a' });
    const older = await storedCall(a, { gclid: 'gclid-a' });
    await queue(a, kept, 'google_ads');
    await queue(a, older, 'google_ads');
    const rows: Array<{ cdr_id: string; same: boolean }> = await stores.dataSource.query(
      `SELECT o.cdr_id::text AS cdr_id, o.cdr_start = c.start AS same
         FROM conversion_outbox o JOIN cdrs c ON c.id = o.cdr_id
        WHERE o.cdr_id IN ($1, $2) ORDER BY o.id`,
      [kept, older],
    );
    expect(rows).toEqual([
      { cdr_id: kept, same: true },
      { cdr_id: older, same: true },
    ]);
    // As a row queued before the start was kept.
    await stores.dataSource.query(`UPDATE conversion_outbox SET cdr_start = NULL WHERE cdr_id = $1`, [older]);
    expect(await exporter().runOnce()).toBe(2);
    for (const cdrId of [kept, older]) {
      expect((await outbox.forRecord(a, cdrId))[0]).toMatchObject({ status: 'sent', lastError: null });
      expect(ads.acceptedWithOrderId(conversionOrderId(cdrId, 'call'))).toHaveLength(1);
    }
  });

  it('holds a paused integration’s queue until it is resumed, and drops a removed one’s', async () => {
    const [a, b] = partners as [string, string];
    await integrations.save(a, googleAds({ paused: true }));
    const held = await storedCall(a, { gclid: 'gclid-a' });
    await queue(a, held, 'google_ads');
    const removed = await storedCall(b, { ga_client_id: '1.2' });
    await integrations.save(b, {
      kind: 'ga4',
      paused: false,
      measurementId: STREAM.measurementId,
      secrets: { apiSecret: STREAM.apiSecret },
      modified: clock.now,
    });
    await queue(b, removed, 'ga4');
    await integrations.remove(b, 'ga4');
    expect(await outbox.forRecord(b, removed)).toEqual([]);
    expect(await exporter().runOnce()).toBe(0);
    expect((await outbox.forRecord(a, held))[0]).toMatchObject({ status: 'pending', attempts: 0 });

    await integrations.save(a, googleAds());
    expect(await exporter().runOnce()).toBe(1);
    expect((await outbox.forRecord(a, held))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(ads.acceptedWithOrderId(conversionOrderId(held, 'call'))).toHaveLength(1);
  });
});
