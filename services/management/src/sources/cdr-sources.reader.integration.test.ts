import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestCustomer } from '../test-support/store-case-fixtures';
import { insertTestPartners } from '../test-support/test-partners';
import { SqlCdrSourcesReader } from './cdr-sources.reader';

// A batch's pool calls' sources with their campaigns' pricing, one query (docs/architecture.md,
// Joins kept across owners).
describe('the attributed sources reader', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let acme: string;
  let other: string;
  let withCampaign: string;
  let withoutCampaign: string;
  let theirs: string;
  let campaign: string;
  let model: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    [acme, other] = (await insertTestPartners(dataSource.manager, 'acme', 'other')) as [string, string];
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at)
       VALUES ($1, '+4791200001', 'static', now()), ($1, '+4791200002', 'static', now()),
              ($2, '+4791200003', 'static', now())`,
      [acme, other],
    );
    const kari = await insertTestCustomer(dataSource.manager, acme, 'K-1');
    const ola = await insertTestCustomer(dataSource.manager, other, 'O-1');
    [{ id: model }] = await dataSource.query(
      `INSERT INTO pricing_models (partner_id, name, type, unique_caller_time, conditions)
       VALUES ($1, 'CPL', '0', 86400, '[{"min_duration": 30, "commission": "12.50"}]') RETURNING id::text AS id`,
      [acme],
    );
    [{ id: campaign }] = await dataSource.query(
      `INSERT INTO campaigns (partner_id, customer_id, pricing_model_id, name, state)
       VALUES ($1, $2, $3, 'Spring', '1') RETURNING id::text AS id`,
      [acme, kari, model],
    );
    const sources: Array<{ id: string }> = await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, campaign_id, activated_at)
       VALUES ($1, $2, 'In the campaign', '+4722000001', '+4791200001', $5, now()),
              ($1, $2, 'Alone', '+4722000002', '+4791200002', NULL, now()),
              ($3, $4, 'Theirs', '+4722000003', '+4791200003', NULL, now())
       RETURNING id::text AS id`,
      [acme, kari, other, ola, campaign],
    );
    [withCampaign, withoutCampaign, theirs] = sources.map((row) => row.id) as [string, string, string];
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it("answers the partner's sources named, each with its campaign's owner and pricing", async () => {
    const found = await new SqlCdrSourcesReader(dataSource.manager).findSourcesByIds([
      { partnerId: acme, sourceId: withCampaign },
      { partnerId: acme, sourceId: withoutCampaign },
      // Another partner's source is none of acme's; a malformed id is looked for nowhere.
      { partnerId: acme, sourceId: theirs },
      { partnerId: acme, sourceId: 'x1' },
    ]);
    const byName = new Map(found.map((entry) => [entry.source.name, entry]));
    expect([...byName.keys()].sort()).toEqual(['Alone', 'In the campaign']);
    expect(byName.get('In the campaign')).toMatchObject({
      partnerId: acme,
      source: { id: withCampaign, custnr: 'K-1', campaignId: campaign },
      campaign: {
        partnerId: acme,
        pricing: {
          campaignId: campaign,
          state: '1',
          pricingModelId: model,
          uniqueCallerSeconds: 86400,
          conditions: [{ min_duration: 30, commission: '12.50' }],
        },
      },
    });
    expect(byName.get('Alone')).toMatchObject({ source: { campaignId: null }, campaign: null });
  });
});
