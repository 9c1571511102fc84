import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from './management-data-source';
import {
  insertTestCampaign,
  insertTestCustomer,
  insertTestPricingModel,
} from '../test-support/store-case-fixtures';
import { insertTestPartners } from '../test-support/test-partners';
import { callKey } from '../cdrs/cdr-batch-lookup';
import { TypeormIntegrationsStore } from '../integrations/integrations.store';
import { SqlDialledNumbersReader } from './dialled-numbers.reader';

// A batch's first lookup (docs/architecture.md, Joins kept across owners): the numbers with their
// owners, the owners' sources on them and those sources' campaigns, in one query.
describe('the dialled numbers reader', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let acme: string;
  let other: string;
  let campaign: string;
  let model: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    [acme, other] = (await insertTestPartners(dataSource.manager, 'acme', 'other')) as [string, string];
    await dataSource.query(`UPDATE partners SET spam_threshold = 90 WHERE id = $1`, [acme]);
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at, held_until)
       VALUES ($1, '+4791200001', 'static', now(), '2026-12-01T00:00:00Z'),
              ($1, '+4791200002', 'static', now(), NULL),
              ($1, '+4791200003', 'pool', now(), NULL),
              ($2, '+4791200004', 'static', now(), NULL)`,
      [acme, other],
    );
    const kari = await insertTestCustomer(dataSource.manager, acme, 'K-1');
    const ola = await insertTestCustomer(dataSource.manager, other, 'O-1');
    await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, status, closed_at, activated_at)
       VALUES ($1, $2, 'Closed', '+4722000001', '+4791200001', 'closed', '2026-10-01T00:00:00Z', '2026-01-01T00:00:00Z'),
              ($1, $2, 'Open', '+4722000002', '+4791200001', 'active', NULL, '2026-10-01T00:00:00Z'),
              ($3, $4, 'Theirs', '+4722000003', '+4791200004', 'active', NULL, '2026-01-01T00:00:00Z'),
              -- Another partner's source on acme's number is none of acme's.
              ($3, $4, 'Stray', '+4722000004', '+4791200002', 'closed', '2026-09-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      [acme, kari, other, ola],
    );
    model = await insertTestPricingModel(dataSource.manager, acme, 'Per lead');
    campaign = await insertTestCampaign(dataSource.manager, acme, kari, model, 'Spring');
    await dataSource.query(`UPDATE sources SET campaign_id = $1 WHERE partner_id = $2 AND name = 'Open'`, [
      campaign,
      acme,
    ]);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('answers each number once, with its owner, and every source its owner had on it', async () => {
    const found = await new SqlDialledNumbersReader(dataSource.manager).findDialledNumbers(
      ['+4791200001', '+4791200002', '+4791200003', '+4791200004', '+4791299999'].map((bnum, i) => ({
        bnum,
        callId: `new-${i}`,
      })),
    );
    expect([...found.numbers.keys()].sort()).toEqual([
      '+4791200001',
      '+4791200002',
      '+4791200003',
      '+4791200004',
    ]);
    expect(found.numbers.get('+4791200001')).toEqual({
      partnerId: acme,
      advId: 'acme',
      timeZone: 'Europe/Oslo',
      country: 'NO',
      kind: 'static',
      heldUntil: new Date('2026-12-01T00:00:00Z'),
      spamThreshold: 90,
    });
    expect(found.numbers.get('+4791200004')).toMatchObject({
      partnerId: other,
      advId: 'other',
      heldUntil: null,
    });
    expect(found.numbers.get('+4791200003')).toMatchObject({ partnerId: acme, kind: 'pool' });

    // Numbers without sources of their owner have no entry; the sources carry their customer's custnr.
    expect([...found.sources.keys()].sort()).toEqual(['+4791200001', '+4791200004']);
    const acmeSources = found.sources.get('+4791200001')!;
    expect(acmeSources.partnerId).toBe(acme);
    expect(acmeSources.sources.map((source) => [source.name, source.status, source.custnr]).sort()).toEqual([
      ['Closed', 'closed', 'K-1'],
      ['Open', 'active', 'K-1'],
    ]);
    expect(found.sources.get('+4791200004')).toMatchObject({
      partnerId: other,
      sources: [{ name: 'Theirs', custnr: 'O-1', closedAt: null }],
    });

    // The one source with a campaign brings its pricing, named with the campaign's partner.
    expect(acmeSources.sources.find((source) => source.name === 'Open')!.campaignId).toBe(campaign);
    expect([...found.pricings.keys()]).toEqual([campaign]);
    expect(found.pricings.get(campaign)).toEqual({
      partnerId: acme,
      pricing: {
        campaignId: campaign,
        state: '0',
        pricingModelId: model,
        uniqueCallerSeconds: 3600,
        conditions: expect.any(Array),
      },
    });
  });

  it("answers the call ids the dialled number's partner has claimed, and no other partner's", async () => {
    const start = new Date('2026-11-20T10:00:00.123Z');
    await dataSource.query(
      `INSERT INTO cdr_call_ids (partner_id, call_id, cdr_id, start)
       VALUES ($1, 'stored-1', 501, $3), ($2, 'stored-2', 502, $3), ($1, 'stored-3', 503, $3)`,
      [acme, other, start],
    );
    const found = await new SqlDialledNumbersReader(dataSource.manager).findDialledNumbers([
      { bnum: '+4791200001', callId: 'stored-1' },
      // The same call sent twice in one batch is one claim.
      { bnum: '+4791200001', callId: 'stored-1' },
      // Another partner's call id is none of acme's: a call to acme's number has not been stored.
      { bnum: '+4791200002', callId: 'stored-2' },
      // acme's call id sent with another partner's number is that partner's call.
      { bnum: '+4791200004', callId: 'stored-3' },
      { bnum: '+4791200001', callId: 'new-1' },
      { bnum: '+4791299999', callId: 'stored-1' },
    ]);

    expect([...found.claims.entries()]).toEqual([[callKey(acme, 'stored-1'), { cdrId: '501', start }]]);
    // The number with two sources still comes once, with its claims.
    expect(found.sources.get('+4791200001')!.sources).toHaveLength(2);
  });

  it("answers every integration of each dialled number's partner, as the integrations store lists them", async () => {
    const integrations = new TypeormIntegrationsStore(dataSource.manager);
    await integrations.save(acme, {
      kind: 'ga4',
      paused: false,
      measurementId: 'G-ACME',
      secrets: { apiSecret: 'acme-secret' },
      modified: new Date('2026-11-02T03:04:05.678Z'),
    });
    const found = await new SqlDialledNumbersReader(dataSource.manager).findDialledNumbers([
      { bnum: '+4791200001', callId: 'i-1' },
      { bnum: '+4791200002', callId: 'i-2' },
      { bnum: '+4791200004', callId: 'i-3' },
    ]);

    expect([...found.integrations.keys()].sort()).toEqual([acme, other].sort());
    expect(found.integrations.get(acme)).toEqual(await integrations.list(acme));
    expect(found.integrations.get(acme)).toMatchObject([
      { kind: 'ga4', measurementId: 'G-ACME', modified: new Date('2026-11-02T03:04:05.678Z') },
    ]);
    expect(found.integrations.get(other)).toEqual([]);
  });

  it('asks nothing for no numbers', async () => {
    const found = await new SqlDialledNumbersReader(dataSource.manager).findDialledNumbers([]);
    expect(found.numbers.size + found.sources.size + found.pricings.size + found.claims.size).toBe(0);
    expect(found.integrations.size).toBe(0);
  });
});
